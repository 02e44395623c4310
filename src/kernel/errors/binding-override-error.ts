import { MoonglassError, type MoonglassErrorOptions } from './moonglass-error.js';

/**
 * An override, or a registration through a scope that is not its plugin's own, that the
 * registry refuses, with the reason. The registry is left exactly as it was.
 */
export class BindingOverrideError extends MoonglassError {
  /** The token or signature the override named. */
  readonly identifier: string;
  /** Why the registry refused it. */
  readonly reason: string;

  constructor(identifier: string, reason: string, options: MoonglassErrorOptions = {}) {
    super('MG_BINDING_OVERRIDE', `cannot override ${identifier}: ${reason}`, options);
    this.identifier = identifier;
    this.reason = reason;
  }
}

import { MoonglassError } from './moonglass-error.js';

/** An override that the registry refuses, with the reason. */
export class BindingOverrideError extends MoonglassError {
  readonly identifier: string;
  readonly reason: string;

  constructor(identifier: string, reason: string) {
    super('MG_BINDING_OVERRIDE', `cannot override ${identifier}: ${reason}`);
    this.identifier = identifier;
    this.reason = reason;
  }
}

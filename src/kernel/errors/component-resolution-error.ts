import { MoonglassError } from './moonglass-error.js';
import { describeError } from './describe-error.js';

/** The container holds a binding for `signature` but could not build it. */
export class ComponentResolutionError extends MoonglassError {
  /** The component that could not be built; the constructor's error is the `cause`. */
  readonly signature: string;

  constructor(signature: string, cause: unknown) {
    super('MG_COMPONENT_RESOLUTION', `cannot build component "${signature}": ${describeError(cause)}`, { cause });
    this.signature = signature;
  }
}

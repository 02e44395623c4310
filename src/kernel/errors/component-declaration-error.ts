import { MoonglassError } from './moonglass-error.js';

/** A component decorator was given a value it cannot accept. */
export class ComponentDeclarationError extends MoonglassError {
  /** The decorated class's name. */
  readonly className: string;
  /** The decorator option that was refused (`name`, `weight`, `subscribe` …). */
  readonly field: string;
  /** What is wrong with it, completing the sentence after `field`. */
  readonly reason: string;

  constructor(className: string, field: string, reason: string) {
    super('MG_COMPONENT_DECLARATION', `component class ${className}: ${field} ${reason}`);
    this.className = className;
    this.field = field;
    this.reason = reason;
  }
}

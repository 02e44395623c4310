import { MoonglassError } from './moonglass-error.js';

/** A component decorator was given a value it cannot accept. */
export class ComponentDeclarationError extends MoonglassError {
  readonly className: string;
  readonly field: string;
  readonly reason: string;

  constructor(className: string, field: string, reason: string) {
    super('MG_COMPONENT_DECLARATION', `component class ${className}: ${field} ${reason}`);
    this.className = className;
    this.field = field;
    this.reason = reason;
  }
}

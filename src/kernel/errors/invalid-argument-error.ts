import { MoonglassError } from './moonglass-error.js';

/** A public function got an argument outside its documented range. */
export class InvalidArgumentError extends MoonglassError {
  /** The name of the argument that was refused. */
  readonly parameter: string;
  /** The value that was given. */
  readonly value: unknown;

  constructor(functionName: string, parameter: string, value: unknown, expected: string) {
    super('MG_INVALID_ARGUMENT', `${functionName}(): ${parameter} must be ${expected}, got ${String(value)}`);
    this.parameter = parameter;
    this.value = value;
  }
}

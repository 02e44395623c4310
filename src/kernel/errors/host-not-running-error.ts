import { MoonglassError } from './moonglass-error.js';

/** A host-level function was called outside any running host. */
export class HostNotRunningError extends MoonglassError {
  readonly operation: string;

  constructor(operation: string) {
    super(
      'MG_HOST_NOT_RUNNING',
      `${operation}() needs a running host: call it from a plugin, a component or a handler, ` +
        'or after `await createHost(...).start()`.',
    );
    this.operation = operation;
  }
}

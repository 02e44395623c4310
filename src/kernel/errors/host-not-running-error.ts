import { MoonglassError } from './moonglass-error.js';

/** A module-level function was called with no running host, or with several to choose from. */
export class HostNotRunningError extends MoonglassError {
  /** The module-level function that was called, e.g. `publishEvent`. */
  readonly operation: string;
  /** How many hosts were running: 0 (none) or more than 1 (ambiguous). */
  readonly runningHosts: number;

  constructor(operation: string, runningHosts = 0) {
    super(
      'MG_HOST_NOT_RUNNING',
      runningHosts === 0
        ? `${operation}() needs a running host: call it from a plugin, a component or a handler, ` +
            'or after `await createHost(...).start()`.'
        : `${operation}() cannot tell which of the ${runningHosts} running hosts to use; ` +
            `call host.${operation}() on the one you mean.`,
    );
    this.operation = operation;
    this.runningHosts = runningHosts;
  }
}

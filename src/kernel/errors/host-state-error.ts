import { MoonglassError } from './moonglass-error.js';

/** A host method was called in a state where it cannot run (start twice, config before start). */
export class HostStateError extends MoonglassError {
  /** The host's state at the call ({@link HostState}), e.g. `created` or `stopped`. */
  readonly state: string;

  constructor(operation: string, state: string, hint: string) {
    super('MG_HOST_STATE', `${operation} is not possible while the host is ${state}: ${hint}`);
    this.state = state;
  }
}

import { MoonglassError } from './moonglass-error.js';

/** publishEvent / subscribe was called with an unusable event name or params. */
export class EventPublishError extends MoonglassError {
  /** The event name that was given, as given. */
  readonly eventName: unknown;
  /** What is wrong with the name, the params or the handler. */
  readonly reason: string;

  constructor(eventName: unknown, reason: string) {
    super('MG_EVENT_PUBLISH', `event ${JSON.stringify(eventName) ?? String(eventName)}: ${reason}`);
    this.eventName = eventName;
    this.reason = reason;
  }
}

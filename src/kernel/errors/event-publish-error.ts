import { MoonglassError } from './moonglass-error.js';

/** publishEvent / subscribe was called with an unusable event name or params. */
export class EventPublishError extends MoonglassError {
  readonly eventName: unknown;
  readonly reason: string;

  constructor(eventName: unknown, reason: string) {
    super('MG_EVENT_PUBLISH', `event ${JSON.stringify(eventName) ?? String(eventName)}: ${reason}`);
    this.eventName = eventName;
    this.reason = reason;
  }
}

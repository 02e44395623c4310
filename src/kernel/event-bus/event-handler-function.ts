import type { EventParams } from './event-payloads.js';
import type { HandlerResult } from './handler-result.js';

/** A subscriber: gets the event name and a shallow copy of the current params. */
export type EventHandlerFunction<E extends string = string> = (
  eventName: E,
  params: EventParams<E>,
) => HandlerResult<EventParams<E>> | PromiseLike<HandlerResult<EventParams<E>>>;

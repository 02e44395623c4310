import type { EventName, EventParams } from './event-payloads.js';
import type { HandlerResult } from './handler-result.js';

/**
 * Base of event handler components. Decorate the subclass with `@eventHandler({...})`; the
 * host subscribes it to each listed event when its plugin loads and unsubscribes it on unload.
 *
 * `execute` gets the event name and a shallow copy of the current params and returns
 * `[EventDecision.X, params]`. Change values, never keys. Catch your own failures when the
 * publisher relies on your result: a throw counts as PASS.
 */
export abstract class BaseEventHandler<E extends EventName = EventName> {
  /**
   * Handles one publish of a subscribed event: return `[decision, params]`, with the params' keys
   * unchanged. A throw or a timeout counts as PASS and is logged.
   */
  abstract execute(eventName: E, params: EventParams<E>): HandlerResult<EventParams<E>> | Promise<HandlerResult<EventParams<E>>>;
}

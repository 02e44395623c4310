import type { EventHandlerFunction } from './event-handler-function.js';

/** A read-only view of one subscription, for listings (the console's events page). */
export interface SubscriberInfo {
  /** The event name subscribed to. */
  event: string;
  /** Who the handler is in logs: the label given, else the handler function's name, else `handler#<order>`. */
  label: string;
  /** The plugin id that owns the subscription; undefined for the host's own. */
  owner: string | undefined;
  /** Higher runs first. */
  weight: number;
  /** The handler's own timeout in seconds as given (`undefined`/`null`: the bus default; `<= 0`: none). */
  timeout: number | null | undefined;
  /** The subscription's place in the bus's subscription sequence; breaks ties between equal weights. */
  order: number;
}

export interface Subscription extends SubscriberInfo {
  handler: EventHandlerFunction;
}

import type { EventHandlerFunction } from './event-handler-function.js';

/** A read-only view of one subscription, for listings (the console's events page). */
export interface SubscriberInfo {
  event: string;
  label: string;
  owner: string | undefined;
  weight: number;
  timeout: number | null | undefined;
  order: number;
}

export interface Subscription extends SubscriberInfo {
  handler: EventHandlerFunction;
}

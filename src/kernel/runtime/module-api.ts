import type { EventName, EventParams } from '../event-bus/event-payloads.js';
import type { PublishResult } from '../event-bus/event-bus.js';
import type { ServiceTypes } from '../registry/service-types.js';
import { currentHost, soleHost, soleRegistry } from './host-runtime.js';

/**
 * A NEW instance of the component bound to `signature` (`<plugin_id>:<kind>:<name>`), or
 * `undefined` when nothing is bound. Any plugin may call it without importing the provider.
 */
export function getService<S extends keyof ServiceTypes>(signature: S): ServiceTypes[S] | undefined;
export function getService<T = unknown>(signature: string): T | undefined;
export function getService(signature: string): unknown {
  return (soleRegistry ?? currentHost('getService').registry).get(signature);
}

/**
 * Publishes `eventName` on the running host's bus and resolves to `{ decision, params }`.
 * With no subscribers: SUCCESS and a copy of `params`.
 */
export function publishEvent<E extends EventName>(eventName: E, params: EventParams<E>): Promise<PublishResult<EventParams<E>>> {
  return (soleHost ?? currentHost('publishEvent')).bus.publish(eventName, params);
}

/** Sets the default handler timeout in seconds (`<= 0`: none) for handlers that declare none. */
export function setEventHandlerTimeout(seconds: number): void {
  currentHost('setEventHandlerTimeout').bus.setDefaultTimeout(seconds);
}

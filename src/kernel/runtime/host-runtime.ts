import { AsyncLocalStorage } from 'node:async_hooks';
import { HostNotRunningError } from '../errors/host-not-running-error.js';
import type { EventBus } from '../event-bus/event-bus.js';
import type { ComponentRegistry } from '../registry/component-registry.js';

/** What the module-level API (`getService`, `publishEvent` ...) needs from a running host. */
export interface HostRuntime {
  readonly registry: ComponentRegistry;
  readonly bus: EventBus;
}

const storage = new AsyncLocalStorage<HostRuntime>();
const running = new Set<HostRuntime>();

/** Runs `fn(...args)` (and everything it starts) as part of `runtime`. */
export function runInHost<A extends unknown[], T>(runtime: HostRuntime, fn: (...args: A) => T, ...args: A): T {
  return storage.run(runtime, fn, ...args);
}

/** Marks a host as running (or stopped), for calls made outside any host's async context. */
export function setHostRunning(runtime: HostRuntime, isRunning: boolean): void {
  if (isRunning) running.add(runtime);
  else running.delete(runtime);
}

/**
 * The host a module-level call belongs to: the one whose work is running (async context),
 * else the only running host. Several hosts in one process (tests) need the context.
 */
export function currentHost(operation: string): HostRuntime {
  const fromContext = storage.getStore();
  if (fromContext !== undefined) return fromContext;
  if (running.size === 1) return running.values().next().value!;
  throw new HostNotRunningError(operation);
}

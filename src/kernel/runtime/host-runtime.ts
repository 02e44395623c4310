import { HostNotRunningError } from '../errors/host-not-running-error.js';
import type { EventBus } from '../event-bus/event-bus.js';
import type { ComponentRegistry } from '../registry/component-registry.js';

/** What the module-level API (`getService`, `publishEvent` ...) needs from a running host. */
export interface HostRuntime {
  readonly registry: ComponentRegistry;
  readonly bus: EventBus;
}

// Module-level calls go to the one running host. No AsyncLocalStorage: on Node 20, enabling
// it slows every await in the process about 2.5x (measured: a 10-await loop went from
// 0.7 µs to 1.8 µs), a tax on the whole bot to serve the rare process with several hosts.
// Such a process (a test suite, an embedder) calls the host's own methods instead.
const running = new Set<HostRuntime>();
/** The running host when exactly one runs; read directly by the hot module-level calls. */
export let soleHost: HostRuntime | undefined;
/** `soleHost.registry`, kept beside it: `getService` is the hottest module-level call. */
export let soleRegistry: ComponentRegistry | undefined;

/** Marks a host as running (or stopped). */
export function setHostRunning(runtime: HostRuntime, isRunning: boolean): void {
  if (isRunning) running.add(runtime);
  else running.delete(runtime);
  soleHost = running.size === 1 ? running.values().next().value : undefined;
  soleRegistry = soleHost?.registry;
}

/** The running host; throws `HostNotRunningError` when none, or several, are running. */
export function currentHost(operation: string): HostRuntime {
  if (soleHost !== undefined) return soleHost;
  throw new HostNotRunningError(operation, running.size);
}

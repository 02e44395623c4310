import type { Clock, TimerHandle } from './clock.js';
import { sleepOn } from './clock.js';

/**
 * A clock that reads whichever clock `current()` returns at each call, so the host's waits,
 * delays and timeouts follow an override of `TOKENS.Clock`. A timer is cleared on the clock
 * that set it, even when the binding changed in between.
 */
export function followingClock(current: () => Clock): Clock {
  const owners = new WeakMap<object, Clock>();
  const clock: Clock = {
    now: () => current().now(),
    setTimeout(callback, delayMs) {
      const owner = current();
      const handle = owner.setTimeout(callback, delayMs);
      if (typeof handle === 'object' && handle !== null) owners.set(handle, owner);
      return handle;
    },
    clearTimeout(handle: TimerHandle) {
      const owner = typeof handle === 'object' && handle !== null ? owners.get(handle) : undefined;
      (owner ?? current()).clearTimeout(handle);
    },
    sleep: (delayMs, signal) => sleepOn(clock, delayMs, signal),
  };
  return clock;
}

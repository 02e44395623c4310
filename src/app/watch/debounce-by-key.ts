import type { Clock, TimerHandle } from '../../kernel/time/clock.js';

/**
 * Calls `run(key)` once a key has been quiet for `quietMs` on the clock: a burst of calls
 * for one key (an editor's save fires several file events) becomes one run; other keys wait
 * on their own timers. `cancel()` drops every pending run.
 */
export function debounceByKey(clock: Clock, quietMs: number, run: (key: string) => void): { touch(key: string): void; cancel(): void } {
  const pending = new Map<string, TimerHandle>();
  return {
    touch(key) {
      const waiting = pending.get(key);
      if (waiting !== undefined) clock.clearTimeout(waiting);
      pending.set(
        key,
        clock.setTimeout(() => {
          pending.delete(key);
          run(key);
        }, quietMs),
      );
    },
    cancel() {
      for (const handle of pending.values()) clock.clearTimeout(handle);
      pending.clear();
    },
  };
}

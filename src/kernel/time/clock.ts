/** An opaque handle returned by `Clock.setTimeout`. */
export type TimerHandle =
  | {
      /** @internal Brand that keeps the handle opaque; no such property exists. */
      readonly __timer: unique symbol;
    }
  | object;

/**
 * Where time comes from. Typing delays, waits, cooldowns and handler timeouts all read this
 * seam (bound as `TOKENS.Clock`), so tests drive them with `ManualClock` instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `callback` after `delayMs`. Timers never keep the process alive on their own. */
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  /** Cancels a timer from `setTimeout`; a handle that already fired or was cleared is ignored. */
  clearTimeout(handle: TimerHandle): void;
  /** Resolves after `delayMs`, or rejects with the signal's reason when it aborts. */
  sleep(delayMs: number, signal?: AbortSignal): Promise<void>;
}

export function sleepOn(clock: Clock, delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal!.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// Zero-delay timers run as immediates: Node clamps setTimeout to 1 ms, which would add a
// millisecond to every "as soon as possible" in the stream loop. They are NOT unref'd: an
// unref'd immediate does not stop the loop from sleeping in poll, so it would wait for the
// next unrelated event (seen: 2 s stalls). An immediate runs on the next turn anyway.
const immediates = new WeakSet<object>();

/** The real clock: `Date.now` and unref'd Node timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, delayMs) {
    if (delayMs <= 0) {
      const immediate = setImmediate(callback);
      immediates.add(immediate);
      return immediate;
    }
    const timer = setTimeout(callback, delayMs);
    timer.unref();
    return timer;
  },
  clearTimeout(handle) {
    if (immediates.has(handle)) clearImmediate(handle as NodeJS.Immediate);
    else clearTimeout(handle as NodeJS.Timeout);
  },
  sleep(delayMs, signal) {
    return sleepOn(systemClock, delayMs, signal);
  },
};

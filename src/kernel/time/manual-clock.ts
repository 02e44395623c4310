import { type Clock, type TimerHandle, sleepOn } from './clock.js';

interface ManualTimer {
  at: number;
  seq: number;
  callback: () => void;
}

/**
 * A clock that moves only when told to. `advance(ms)` fires every timer that falls due, in
 * time order, letting pending promise callbacks run between timers, so code awaiting a
 * `sleep` continues as it would with real time.
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  readonly #timers = new Set<ManualTimer>();

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.#now = startMs;
  }

  /**
   * The clock's current time in epoch milliseconds: the start time (default 2026-01-01 00:00 UTC)
   * plus everything advanced so far.
   */
  now(): number {
    return this.#now;
  }

  /** Schedules `callback` at now + `delayMs` (a negative delay counts as 0); it fires only during `advance`. */
  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer: ManualTimer = { at: this.#now + Math.max(0, delayMs), seq: this.#seq++, callback };
    this.#timers.add(timer);
    return timer;
  }

  /** Cancels a pending timer; an unknown or fired handle is ignored. */
  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete(handle as ManualTimer);
  }

  /** Resolves once `advance` has moved time `delayMs` forward, or rejects with the signal's reason when it aborts. */
  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, delayMs, signal);
  }

  /** Number of timers not yet fired. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, firing due timers in order. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    await flushMicrotasks();
    for (;;) {
      const next = this.#nextDue(target);
      if (next === undefined) break;
      this.#timers.delete(next);
      this.#now = next.at;
      next.callback();
      await flushMicrotasks();
    }
    this.#now = target;
    await flushMicrotasks();
  }

  #nextDue(limit: number): ManualTimer | undefined {
    let best: ManualTimer | undefined;
    for (const timer of this.#timers) {
      if (timer.at > limit) continue;
      if (best === undefined || timer.at < best.at || (timer.at === best.at && timer.seq < best.seq)) best = timer;
    }
    return best;
  }
}

/**
 * Lets every already-queued promise callback (and the ones they queue) run, and the work
 * that waits one turn of the event loop: the database's write batch commits at
 * `setImmediate`, and what awaits the commit (a send, a chatter's wake-up) goes on after it.
 */
export async function flushMicrotasks(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

import { ManualClock } from '../../../src/kernel/time/manual-clock.js';

/** A `ManualClock` that records every `sleep` and lets a test wait for the next one. */
export class RecordingClock extends ManualClock {
  readonly sleeps: number[] = [];
  readonly #waiters: Array<{ count: number; resolve: (delayMs: number) => void }> = [];

  override sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(delayMs);
    for (const waiter of [...this.#waiters]) {
      if (this.sleeps.length >= waiter.count) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(delayMs);
      }
    }
    return super.sleep(delayMs, signal);
  }

  /** Resolves with the delay of the `count`-th sleep (1-based), once it has been asked for. */
  sleepNumber(count: number): Promise<number> {
    const known = this.sleeps[count - 1];
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }
}

import type { Clock, TimerHandle } from '../time/clock.js';

/** Returned by `race` when the deadline passed before the work settled. */
export const TIMED_OUT: unique symbol = Symbol('moonglass.timedOut');

interface Pending {
  deadline: number;
  expire(): void;
}

/**
 * Races promises against deadlines with at most one armed clock timer, instead of one
 * setTimeout/clearTimeout pair per handler call: every publish runs handlers under a
 * timeout, and a timer per call would dominate the cost of a publish.
 *
 * The armed timer is left alone when work settles early; when it fires it expires what is
 * due and re-arms for the earliest remaining deadline.
 */
export class DeadlineScheduler {
  readonly #clock: Clock;
  readonly #pending = new Set<Pending>();
  #armedAt = Number.POSITIVE_INFINITY;
  #handle: TimerHandle | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Settles like `work`, or resolves to `TIMED_OUT` once `timeoutMs` has passed. */
  race<T>(work: PromiseLike<T>, timeoutMs: number): Promise<T | typeof TIMED_OUT> {
    return new Promise<T | typeof TIMED_OUT>((resolve, reject) => {
      const pending: Pending = { deadline: this.#clock.now() + timeoutMs, expire: () => resolve(TIMED_OUT) };
      this.#pending.add(pending);
      if (pending.deadline < this.#armedAt) this.#arm(pending.deadline);
      work.then(
        (value) => {
          this.#pending.delete(pending);
          resolve(value);
        },
        (error: unknown) => {
          this.#pending.delete(pending);
          reject(error);
        },
      );
    });
  }

  /** Number of races still waiting. */
  get size(): number {
    return this.#pending.size;
  }

  #arm(at: number): void {
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#armedAt = at;
    this.#handle = this.#clock.setTimeout(() => this.#fire(), at - this.#clock.now());
  }

  #fire(): void {
    this.#handle = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = this.#clock.now();
    let next = Number.POSITIVE_INFINITY;
    for (const pending of this.#pending) {
      if (pending.deadline <= now) {
        this.#pending.delete(pending);
        pending.expire();
      } else if (pending.deadline < next) {
        next = pending.deadline;
      }
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  }
}

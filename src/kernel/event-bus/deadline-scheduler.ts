import type { Clock, TimerHandle } from '../time/clock.js';

/** Something with a deadline: `expire` is called once the deadline passes while it is watched. */
export interface Watched {
  deadline: number;
  /** Position in the scheduler's list while watched; -1 otherwise. Owned by the scheduler. */
  watchIndex: number;
  /** The stamping window the deadline was computed in. Owned by the scheduler. */
  window?: number;
  expire(): void;
}

/** Returned by `race` when the deadline passed before the work settled. */
export const TIMED_OUT: unique symbol = Symbol('moonglass.timedOut');

export interface DeadlineSchedulerOptions {
  clock: Clock;
  /**
   * How late a deadline may fire, in milliseconds, in exchange for reading the clock once
   * per window instead of once per watch. 0 reads the clock on every watch (exact).
   */
  precisionMs?: number;
}

/**
 * Deadlines for many concurrent waits behind one armed clock timer, instead of a
 * setTimeout/clearTimeout pair per wait: every publish runs each async handler under a
 * timeout, and a timer per handler call would dominate the cost of a publish.
 *
 * Watching and unwatching are O(1) (an unordered array with swap-removal), and watching an
 * item again only moves its deadline; the armed timer is left alone when a wait ends early
 * or a deadline moves later, and when it fires it expires what is due and re-arms
 * for the earliest remaining deadline.
 *
 * With `precisionMs > 0`, start times are not read per watch: the first watch of a window
 * reads the clock once and every watch in the window starts at the window's end (an upper
 * bound of its true start). A deadline therefore never fires early, and fires at most
 * `precisionMs` late. If the event loop was blocked past a window's end, the deadlines
 * stamped in it move later by the overrun, so a wait that began during the block is not cut
 * short either (it may then fire up to the length of the block late).
 */
export class DeadlineScheduler {
  readonly #clock: Clock;
  readonly #precisionMs: number;
  readonly #watched: Watched[] = [];
  #armedAt = Number.POSITIVE_INFINITY;
  #handle: TimerHandle | undefined;
  /** Upper bound of "now" while a stamping window is open; NaN when none is. */
  #windowEnd = Number.NaN;
  #window = 0;

  constructor(options: DeadlineSchedulerOptions) {
    this.#clock = options.clock;
    this.#precisionMs = Math.max(0, options.precisionMs ?? 0);
  }

  /**
   * Starts watching `item`; it expires `timeoutMs` after now (never earlier) unless unwatched
   * first. An item watched already gets the new deadline in place of its old one (a run that
   * awaits one handler after another stays in the list and moves its deadline on).
   */
  watch(item: Watched, timeoutMs: number): void {
    item.deadline = this.#startTime() + timeoutMs;
    item.window = this.#window;
    const list = this.#watched;
    const index = item.watchIndex;
    if (index < 0 || list[index] !== item) {
      item.watchIndex = list.length;
      list.push(item);
    }
    if (item.deadline < this.#armedAt) this.#arm(item.deadline);
  }

  /** Stops watching `item`. Safe to call for an item that expired or was never watched. */
  unwatch(item: Watched): void {
    const list = this.#watched;
    const index = item.watchIndex;
    if (index < 0 || list[index] !== item) return;
    item.watchIndex = -1;
    const last = list.pop()!;
    if (last !== item) {
      list[index] = last;
      last.watchIndex = index;
    }
  }

  /** Settles like `work`, or resolves to `TIMED_OUT` once `timeoutMs` has passed. */
  race<T>(work: PromiseLike<T>, timeoutMs: number): Promise<T | typeof TIMED_OUT> {
    return new Promise<T | typeof TIMED_OUT>((resolve, reject) => {
      const item: Watched = { deadline: 0, watchIndex: -1, expire: () => resolve(TIMED_OUT) };
      this.watch(item, timeoutMs);
      work.then(
        (value) => {
          this.unwatch(item);
          resolve(value);
        },
        (error: unknown) => {
          this.unwatch(item);
          reject(error);
        },
      );
    });
  }

  /** Number of items being watched. */
  get size(): number {
    return this.#watched.length;
  }

  #startTime(): number {
    if (this.#precisionMs === 0) return this.#clock.now();
    if (this.#windowEnd === this.#windowEnd) return this.#windowEnd; // a window is open (not NaN)
    this.#window += 1;
    this.#windowEnd = this.#clock.now() + this.#precisionMs;
    this.#clock.setTimeout(() => this.#closeWindow(this.#clock.now()), this.#precisionMs);
    return this.#windowEnd;
  }

  /** Ends the open window; moves its deadlines later by any overrun past its end. */
  #closeWindow(now: number): void {
    const windowEnd = this.#windowEnd;
    if (windowEnd !== windowEnd) return; // already closed
    this.#windowEnd = Number.NaN;
    const overrun = now - windowEnd;
    if (overrun <= 0) return;
    for (const item of this.#watched) {
      if (item.window === this.#window) item.deadline += overrun;
    }
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
    // The window's own timer may not have run yet after a blocked loop; settle it first so
    // that nothing stamped in it expires early.
    if (this.#windowEnd <= now) this.#closeWindow(now);
    const due: Watched[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const item of this.#watched) {
      if (item.deadline <= now) due.push(item);
      else if (item.deadline < next) next = item.deadline;
    }
    for (const item of due) this.unwatch(item);
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
    for (const item of due) item.expire();
  }
}

/**
 * "At most `replies` per `windowMs`" for many keys (users, chats), over a sliding window: a
 * key has room when fewer than `replies` of its admitted times lie within the last
 * `windowMs`. Only admitted times are kept (at most `replies` per key), and keys whose window
 * has emptied are forgotten, swept at most once per window, so memory follows the keys
 * active in the last window, not every key ever seen.
 */
export class SlidingWindowLimiter {
  readonly replies: number;
  readonly windowMs: number;
  readonly #times = new Map<string, number[]>();
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(replies: number, windowMs: number) {
    this.replies = replies;
    this.windowMs = windowMs;
  }

  /** True when `key` may have one more now (nothing is counted). */
  hasRoom(key: string, now: number): boolean {
    this.#sweep(now);
    return this.#recent(key, now).length < this.replies;
  }

  /** Counts one for `key` at `now`. */
  take(key: string, now: number): void {
    const times = this.#recent(key, now);
    times.push(now);
    this.#times.set(key, times);
  }

  /** When `key` has room again (now, when it has room now). */
  reopensAt(key: string, now: number): number {
    const times = this.#recent(key, now);
    if (times.length < this.replies) return now;
    return times[times.length - this.replies]! + this.windowMs;
  }

  /** Keys held in memory. */
  get size(): number {
    return this.#times.size;
  }

  /** The key's times within the window, oldest first (dropping the older ones). */
  #recent(key: string, now: number): number[] {
    const times = this.#times.get(key);
    if (times === undefined) return [];
    const start = now - this.windowMs;
    let old = 0;
    while (old < times.length && times[old]! <= start) old += 1;
    if (old > 0) times.splice(0, old);
    if (times.length === 0) this.#times.delete(key);
    return times;
  }

  #sweep(now: number): void {
    if (now - this.#sweptAt < this.windowMs) return;
    this.#sweptAt = now;
    const start = now - this.windowMs;
    for (const [key, times] of this.#times) if (times[times.length - 1]! <= start) this.#times.delete(key);
  }
}

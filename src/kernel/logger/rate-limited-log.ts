import { type Clock, systemClock, type TimerHandle } from '../time/clock.js';
import type { Logger } from './logger.js';

/** Occurrences of one key written in full within a window before counting starts. */
export const DEFAULT_FULL_LINES = 3;
/** The summary window, in milliseconds: at most one count line per key per window. */
export const DEFAULT_WINDOW_MS = 60_000;
/** Keys tracked at once; past this, new keys share one entry. */
export const DEFAULT_MAX_KEYS = 1_000;

const OVERFLOW_KEY = '\u0000(other keys)';

export interface RateLimitedLogOptions {
  logger: Logger;
  /** Where the windows' time comes from; tests pass a `ManualClock`. */
  clock: Clock;
  /** Default `DEFAULT_FULL_LINES` (3). */
  fullLines?: number;
  /** Default `DEFAULT_WINDOW_MS` (60 s). */
  windowMs?: number;
  /** Default `DEFAULT_MAX_KEYS` (1,000). */
  maxKeys?: number;
}

type Level = 'warn' | 'error';

interface Repeat {
  /** When the recent full lines were written, oldest first; at most `fullLines` kept. */
  fullAt: number[];
  /** Occurrences counted, not written, since the last summary. */
  counted: number;
  last: { level: Level; fields: Record<string, unknown>; message: string } | undefined;
  /** Set while the key is being counted; fires the summary. */
  timer: TimerHandle | undefined;
}

/**
 * Log lines that one bad peer or one broken handler can repeat per message. Each key (what
 * happened, and to whom: a handler's signature and event, an adapter) writes its first
 * `fullLines` occurrences of a window in full. Further occurrences are only counted, and one
 * line per window says how many there were and repeats the last of them. A window without
 * any occurrence ends the counting, so the next one is written in full again.
 */
export class RateLimitedLog {
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #fullLines: number;
  readonly #windowMs: number;
  readonly #maxKeys: number;
  readonly #repeats = new Map<string, Repeat>();

  constructor(options: RateLimitedLogOptions) {
    this.#logger = options.logger;
    this.#clock = options.clock;
    this.#fullLines = Math.max(1, options.fullLines ?? DEFAULT_FULL_LINES);
    this.#windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.#maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  }

  warn(key: string, fields: Record<string, unknown>, message: string): void {
    this.#write('warn', key, fields, message);
  }

  error(key: string, fields: Record<string, unknown>, message: string): void {
    this.#write('error', key, fields, message);
  }

  #write(level: Level, key: string, fields: Record<string, unknown>, message: string): void {
    const now = this.#clock.now();
    const repeat = this.#repeatFor(key, now);
    if (repeat.timer === undefined) {
      while (repeat.fullAt.length > 0 && now - repeat.fullAt[0]! >= this.#windowMs) repeat.fullAt.shift();
      if (repeat.fullAt.length < this.#fullLines) {
        repeat.fullAt.push(now);
        this.#logger[level](fields, message);
        return;
      }
      repeat.timer = this.#clock.setTimeout(() => this.#summarise(repeat), this.#windowMs);
    }
    repeat.counted += 1;
    repeat.last = { level, fields, message };
  }

  #repeatFor(key: string, now: number): Repeat {
    const known = this.#repeats.get(key);
    if (known !== undefined) return known;
    if (this.#repeats.size >= this.#maxKeys) this.#forgetCalm(now);
    const tracked = this.#repeats.size < this.#maxKeys ? key : OVERFLOW_KEY;
    let repeat = this.#repeats.get(tracked);
    if (repeat === undefined) {
      repeat = { fullAt: [], counted: 0, last: undefined, timer: undefined };
      this.#repeats.set(tracked, repeat);
    }
    return repeat;
  }

  /** Drops the keys that are not being counted and wrote nothing in the current window. */
  #forgetCalm(now: number): void {
    for (const [key, repeat] of this.#repeats) {
      const newest = repeat.fullAt[repeat.fullAt.length - 1];
      if (repeat.timer === undefined && (newest === undefined || now - newest >= this.#windowMs)) this.#repeats.delete(key);
    }
  }

  #summarise(repeat: Repeat): void {
    const { counted, last } = repeat;
    if (counted === 0 || last === undefined) {
      // A quiet window: the next occurrence is news again.
      repeat.timer = undefined;
      repeat.fullAt = [];
      return;
    }
    repeat.counted = 0;
    repeat.timer = this.#clock.setTimeout(() => this.#summarise(repeat), this.#windowMs);
    const seconds = Math.round(this.#windowMs / 1000);
    try {
      this.#logger[last.level](
        { ...last.fields, repeated: counted, window_s: seconds },
        `repeated ${counted} more ${counted === 1 ? 'time' : 'times'} in the last ${seconds} s (counted, not logged one by one); the last: ${last.message}`,
      );
    } catch {
      // A timer callback has nobody to report to: a logger that throws would crash the process.
    }
  }
}

const perLogger = new WeakMap<Logger, RateLimitedLog>();

/**
 * The rate-limited log that belongs to `logger`, made on first use with `clock` (default:
 * the system clock). For call sites that only hold a logger; keys are shared per logger.
 */
export function rateLimitedLogOf(logger: Logger, clock: Clock = systemClock): RateLimitedLog {
  let log = perLogger.get(logger);
  if (log === undefined) {
    log = new RateLimitedLog({ logger, clock });
    perLogger.set(logger, log);
  }
  return log;
}

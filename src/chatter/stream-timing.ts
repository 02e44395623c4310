/** The loop's clockwork; every value is milliseconds. */
export interface StreamTiming {
  /** While a stream waits or cools down, how often it re-checks its rules. */
  tickIntervalMs: number;
  /** A run does not start while the newest message is younger than this (people send in bursts). */
  messageBufferMs: number;
  /** ... but at most this many ticks in a row are skipped for it. */
  maxBufferSkips: number;
  /** A single step (one `next()` of the chatter) longer than this is abandoned as a Failure. */
  stepTimeoutMs: number;
  /** A tick still running after this long is reported ... */
  watchdogWarnMs: number;
  /** ... and after this long abandoned, so the stream starts afresh. */
  watchdogRestartMs: number;
  /** A run that ended in Failure with messages still unread is tried again after this long ... */
  failureRetryMs: number;
  /** ... doubled at each failure in a row, up to this. */
  failureRetryMaxMs: number;
}

export const DEFAULT_STREAM_TIMING: StreamTiming = {
  tickIntervalMs: 5_000,
  messageBufferMs: 1_000,
  maxBufferSkips: 3,
  stepTimeoutMs: 90_000,
  watchdogWarnMs: 150_000,
  watchdogRestartMs: 300_000,
  failureRetryMs: 5_000,
  failureRetryMaxMs: 300_000,
};

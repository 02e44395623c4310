import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock, TimerHandle } from '../kernel/time/clock.js';
import { applyRetention } from './apply-retention.js';
import type { Database } from './database.js';

/** Between two retention passes. */
export const RETENTION_INTERVAL_MS = 86_400_000;
/** From start to the first pass: long enough to stay out of the way of a starting host. */
export const RETENTION_FIRST_DELAY_MS = 60_000;

export interface RetentionOptions {
  database: Database;
  clock: Clock;
  /** Messages and logs older than this many days are removed (`bot.toml [storage] keep_days`). */
  keepDays: number;
  logger: Logger;
  /** From the call to the first pass, milliseconds. Default `RETENTION_FIRST_DELAY_MS` (one minute). */
  firstDelayMs?: number;
}

/**
 * Runs `applyRetention` once shortly after the call and then once a day on `clock`, logging
 * what each pass removed. A failing pass is logged and the schedule goes on; a closed
 * database ends it. Returns a disposer that stops the schedule (safe to call twice).
 */
export function startRetention(options: RetentionOptions): () => void {
  const { database, clock, keepDays, logger } = options;
  let timer: TimerHandle | undefined;
  let stopped = false;

  const run = (): void => {
    timer = undefined;
    if (stopped || !database.isOpen) return;
    try {
      const report = applyRetention(database, keepDays, clock.now());
      logger.info(
        { ...report, keepDays },
        `retention: removed ${report.messages} messages, ${report.toolCalls} tool calls and ${report.modelCalls} model calls ` +
          `older than ${keepDays} days; database ${formatMebibytes(report.sizeBeforeBytes)} -> ${formatMebibytes(report.sizeAfterBytes)}`,
      );
    } catch (error) {
      logger.error({ file: database.file, keepDays, error: describeError(error) }, 'retention failed; the next pass is in a day');
    }
    if (!stopped) timer = clock.setTimeout(run, RETENTION_INTERVAL_MS);
  };

  timer = clock.setTimeout(run, options.firstDelayMs ?? RETENTION_FIRST_DELAY_MS);
  return () => {
    stopped = true;
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
}

function formatMebibytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}

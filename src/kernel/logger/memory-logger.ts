import { pino } from 'pino';
import type { Logger, LogLevel } from './logger.js';

/** One parsed log line as the memory logger kept it. */
export interface LogRecord {
  /** The line's level name. */
  level: LogLevel;
  /** The line's message (`''` when it had none); the other fields are the line's own. */
  msg: string;
  [field: string]: unknown;
}

const LEVEL_NAMES: Record<number, LogLevel> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** A real pino logger that keeps its lines in memory, for tests that assert on logs. */
export function createMemoryLogger(level: LogLevel = 'debug'): {
  /** The logger to hand to the code under test (as `logger` in the host options). */
  logger: Logger;
  /** Every line written so far, oldest first; the array fills as the logger writes. */
  records: LogRecord[];
} {
  const records: LogRecord[] = [];
  const destination = {
    write(line: string): void {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      records.push({ ...parsed, level: LEVEL_NAMES[parsed['level'] as number] ?? 'info', msg: String(parsed['msg'] ?? '') });
    },
  };
  return { logger: pino({ level, base: undefined }, destination), records };
}

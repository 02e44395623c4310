import { pino } from 'pino';
import type { Logger, LogLevel } from './logger.js';

/** One parsed log line as the memory logger kept it. */
export interface LogRecord {
  level: LogLevel;
  msg: string;
  [field: string]: unknown;
}

const LEVEL_NAMES: Record<number, LogLevel> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** A real pino logger that keeps its lines in memory, for tests that assert on logs. */
export function createMemoryLogger(level: LogLevel = 'debug'): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const destination = {
    write(line: string): void {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      records.push({ ...parsed, level: LEVEL_NAMES[parsed['level'] as number] ?? 'info', msg: String(parsed['msg'] ?? '') });
    },
  };
  return { logger: pino({ level, base: undefined }, destination), records };
}

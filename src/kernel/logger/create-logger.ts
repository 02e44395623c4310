import { pino, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import type { Logger, LogLevel } from './logger.js';

export interface CreateLoggerOptions {
  level?: LogLevel;
  /**
   * `pretty`: coloured single lines for a person at a terminal. `json`: one JSON object per
   * line, for files and log collectors. Default: pretty when stdout is a TTY, else json.
   */
  format?: 'pretty' | 'json';
  /** Where lines go; default stdout. */
  destination?: DestinationStream;
}

/** The host's root logger. Use `pluginLogger(root, id)` for a plugin's child. */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const format = options.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const base = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  if (format === 'pretty') {
    const stream = pretty({
      colorize: options.destination === undefined && process.stdout.isTTY,
      sync: true,
      translateTime: 'HH:MM:ss',
      ignore: 'plugin',
      messageFormat: '{if plugin}[{plugin}] {end}{msg}',
      destination: options.destination ?? 1,
    });
    return pino(base, stream);
  }
  return pino(base, options.destination ?? pino.destination({ dest: 1, sync: true }));
}

/** A child logger whose every line carries the plugin id. */
export function pluginLogger(root: Logger, pluginId: string): Logger {
  return root.child({ plugin: pluginId });
}

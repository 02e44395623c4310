import { createRequire } from 'node:module';
import { pino, type DestinationStream } from 'pino';
import type * as PinoPretty from 'pino-pretty';
import { escapeControlCharacters, escapeNonJsonControlCharacters } from './escape-control-characters.js';
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

/** Every string value of a pino record, control characters escaped. */
function escapedRecord(line: string): Record<string, unknown> {
  return JSON.parse(line, (_key, value: unknown) => (typeof value === 'string' ? escapeControlCharacters(value) : value)) as Record<string, unknown>;
}

// pino-pretty (with its colour and time libraries) is loaded only when a logger is pretty:
// `npm start` from a pipe, the adapter processes and most tests log JSON, and every start
// pays for what it imports.
const requireHere = createRequire(import.meta.url);

/** The host's root logger. Use `pluginLogger(root, id)` for a plugin's child. */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const format = options.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const base = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  if (format === 'pretty') {
    const { prettyFactory } = requireHere('pino-pretty') as typeof PinoPretty;
    const prettify = prettyFactory({
      colorize: options.destination === undefined && process.stdout.isTTY,
      translateTime: 'HH:MM:ss',
      ignore: 'plugin',
      messageFormat: '{if plugin}[{plugin}] {end}{msg}',
      // One record, one line: the fields follow the message as JSON, errors included,
      // instead of indented lines of their own.
      singleLine: true,
      errorLikeObjectKeys: [],
    });
    const target = options.destination ?? pino.destination({ dest: 1, sync: true });
    // Text from the wire (a nickname, a frame) must not start a line of its own or colour the
    // terminal: every string is escaped before it is laid out, and what JSON leaves raw in
    // the keys (C1 controls, U+2028) after. pino-pretty's own colours survive.
    const write = (line: string) => target.write(escapeNonJsonControlCharacters(prettify(escapedRecord(line))));
    return pino(base, { write });
  }
  return pino(base, options.destination ?? pino.destination({ dest: 1, sync: true }));
}

/** A child logger whose every line carries the plugin id. */
export function pluginLogger(root: Logger, pluginId: string): Logger {
  return root.child({ plugin: pluginId });
}

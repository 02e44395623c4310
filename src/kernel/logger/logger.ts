import type { Logger as PinoLogger } from 'pino';

/**
 * The logger every part receives (bound as `TOKENS.Logger`): pino's. Plugins get a child
 * that carries `plugin: <id>` on every line.
 */
export type Logger = PinoLogger;

/** A pino level name, lowest to highest; `silent` logs nothing. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

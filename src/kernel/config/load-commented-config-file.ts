import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as z from 'zod';
import { describeError } from '../errors/describe-error.js';
import type { Logger } from '../logger/logger.js';
import { atomicWriteFile } from './atomic-write-file.js';
import { readSecretTomlFile } from './read-toml-file.js';
import { validateConfig } from './validate-config.js';

export interface LoadCommentedConfigFileOptions<S extends z.ZodType> {
  configDir: string;
  fileName: string;
  schema: S;
  /** The whole default file, comments and a commented example included (made only when written). */
  defaultText: string | (() => string);
  /** The dotted paths of keys the schema does not know (records of tables need their own walk). */
  unknownKeys(data: Record<string, unknown>): string[];
  logger: Logger;
  /** Log lines: the default was written, could not be written, unknown keys were ignored. */
  messages: { written: string; unwritable: string; unknown: string };
  /** How the file is read; default `readSecretTomlFile` (a syntax error never quotes the line). */
  read?: (file: string) => Record<string, unknown> | undefined;
}

/**
 * Reads a host config file (`features.toml`, `bot.toml`, `models.toml`, `mcp.toml`), writing
 * its commented default text when there is none. A file that does
 * not parse or validate throws a `ConfigFileError` naming the file and each field by its
 * dotted path, never quoting a line; the file is left as it is. Unknown keys are reported.
 */
export function loadCommentedConfigFile<S extends z.ZodType>(options: LoadCommentedConfigFileOptions<S>): { config: z.output<S>; file: string } {
  const { configDir, fileName, schema, logger, messages } = options;
  const file = join(configDir, fileName);
  const data = (options.read ?? readSecretTomlFile)(file);
  if (data === undefined) {
    const defaults = schema.parse({}) as z.output<S>;
    try {
      mkdirSync(configDir, { recursive: true });
      const text = typeof options.defaultText === 'string' ? options.defaultText : options.defaultText();
      atomicWriteFile(file, text, { durable: false });
      logger.info({ file }, messages.written);
    } catch (error) {
      logger.warn({ file, error: describeError(error) }, messages.unwritable);
    }
    return { config: defaults, file };
  }
  const config = validateConfig(file, schema, data);
  const unknown = options.unknownKeys(data);
  if (unknown.length > 0) logger.warn({ file, keys: unknown }, `${messages.unknown}: ${unknown.join(', ')}`);
  return { config, file };
}

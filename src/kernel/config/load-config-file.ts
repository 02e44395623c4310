import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as z from 'zod';
import { describeError } from '../errors/describe-error.js';
import type { Logger } from '../logger/logger.js';
import { atomicWriteFile } from './atomic-write-file.js';
import { readTomlFile } from './read-toml-file.js';
import { renderTomlDocument } from './render-toml-document.js';
import { unknownKeys } from './unknown-keys.js';
import { validateConfig } from './validate-config.js';

export interface LoadConfigFileOptions<S extends z.ZodObject> {
  configDir: string;
  fileName: string;
  schema: S;
  /** Comment lines at the top of a generated file. */
  header: readonly string[];
  logger: Logger;
}

/**
 * Reads `<configDir>/<fileName>`, writing a commented default file when there is none. A
 * file that does not parse or validate stops the start with a `ConfigFileError` naming the
 * file and each field; the file is left as it is. Unknown keys are reported, not dropped
 * silently.
 */
export function loadConfigFile<S extends z.ZodObject>(options: LoadConfigFileOptions<S>): z.output<S> {
  const { configDir, fileName, schema, header, logger } = options;
  const file = join(configDir, fileName);
  const data = readTomlFile(file);
  if (data === undefined) {
    const defaults = schema.parse({}) as z.output<S>;
    try {
      mkdirSync(configDir, { recursive: true });
      atomicWriteFile(file, renderTomlDocument({ header, schema, values: defaults as Record<string, unknown> }), { durable: false });
      logger.info({ file }, `wrote the default ${fileName}`);
    } catch (error) {
      logger.warn({ file, error: describeError(error) }, `cannot write the default ${fileName}; running with the defaults`);
    }
    return defaults;
  }
  const config = validateConfig(file, schema, data);
  const unknown = unknownKeys(schema, data);
  if (unknown.length > 0) logger.warn({ file, keys: unknown }, `unknown settings ignored: ${unknown.join(', ')}`);
  return config;
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeError } from '../errors/describe-error.js';
import type { Logger } from '../logger/logger.js';
import { APP_CONFIG_FILE_NAME, type AppConfig, AppConfigSchema } from './app-config.js';
import { atomicWriteFile } from './atomic-write-file.js';
import { readTomlFile } from './read-toml-file.js';
import { renderTomlDocument } from './render-toml-document.js';
import { unknownKeys } from './unknown-keys.js';
import { validateConfig } from './validate-config.js';

const HEADER = [
  'moonglass host settings. Written with the defaults on first start; edit freely.',
  'Delete this file to get a fresh default one at the next start.',
];

/**
 * Reads `<configDir>/features.toml`, writing a commented default file when there is none.
 * A file that does not parse or validate stops the start with a `ConfigFileError` naming
 * the file and each field; the file is left as it is.
 */
export function loadAppConfig(configDir: string, logger: Logger): AppConfig {
  const file = join(configDir, APP_CONFIG_FILE_NAME);
  const data = readTomlFile(file);
  if (data === undefined) {
    const defaults = AppConfigSchema.parse({});
    try {
      mkdirSync(configDir, { recursive: true });
      atomicWriteFile(file, renderTomlDocument({ header: HEADER, schema: AppConfigSchema, values: defaults }), { durable: false });
      logger.info({ file }, 'wrote the default host settings');
    } catch (error) {
      logger.warn({ file, error: describeError(error) }, 'cannot write the default host settings; running with the defaults');
    }
    return defaults;
  }
  const config = validateConfig(file, AppConfigSchema, data);
  const unknown = unknownKeys(AppConfigSchema, data);
  if (unknown.length > 0) logger.warn({ file, keys: unknown }, `unknown settings ignored: ${unknown.join(', ')}`);
  return config;
}

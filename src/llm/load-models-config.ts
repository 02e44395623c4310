import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { atomicWriteFile } from '../kernel/config/atomic-write-file.js';
import { readTomlFile } from '../kernel/config/read-toml-file.js';
import { validateConfig } from '../kernel/config/validate-config.js';
import { ConfigFileError } from '../kernel/errors/config-file-error.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import { MODELS_CONFIG_DEFAULT_TEXT } from './models-config-default-text.js';
import { MODELS_CONFIG_FILE_NAME, type ModelsConfig, ModelsConfigSchema } from './models-config.js';
import { modelsConfigUnknownKeys } from './models-config-unknown-keys.js';

/**
 * Reads `<configDir>/models.toml`, writing the commented default file (no providers: the
 * offline demo model) when there is none. A file that does not parse or validate throws a
 * `ConfigFileError` naming the file and each field by its dotted path; the file is left as
 * it is. Unknown keys are reported with a warning. API keys are never logged.
 */
export function loadModelsConfig(configDir: string, logger: Logger): ModelsConfig {
  const file = join(configDir, MODELS_CONFIG_FILE_NAME);
  const data = readModelsToml(file);
  if (data === undefined) {
    const defaults = ModelsConfigSchema.parse({});
    try {
      mkdirSync(configDir, { recursive: true });
      atomicWriteFile(file, MODELS_CONFIG_DEFAULT_TEXT, { durable: false });
      logger.info({ file }, 'wrote the default model settings (no providers: the offline demo model)');
    } catch (error) {
      logger.warn({ file, error: describeError(error) }, 'cannot write the default model settings; running with the offline demo model');
    }
    return defaults;
  }
  const config = validateConfig(file, ModelsConfigSchema, data);
  const unknown = modelsConfigUnknownKeys(data);
  if (unknown.length > 0) logger.warn({ file, keys: unknown }, `unknown model settings ignored: ${unknown.join(', ')}`);
  logger.debug(
    { file, providers: Object.keys(config.providers), models: Object.keys(config.models), tasks: Object.keys(config.tasks) },
    'read the model settings',
  );
  return config;
}

/**
 * The parsed file. A syntax error is re-thrown without its cause: the TOML parser's own
 * message quotes the offending line, which may hold an API key. The issue keeps the line
 * and column.
 */
export function readModelsToml(file: string): Record<string, unknown> | undefined {
  try {
    return readTomlFile(file);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new ConfigFileError(error.file, error.issues);
    throw error;
  }
}

import { loadCommentedConfigFile } from '../kernel/config/load-commented-config-file.js';
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
  const { config, file } = loadCommentedConfigFile({
    configDir,
    fileName: MODELS_CONFIG_FILE_NAME,
    schema: ModelsConfigSchema,
    defaultText: MODELS_CONFIG_DEFAULT_TEXT,
    unknownKeys: modelsConfigUnknownKeys,
    logger,
    messages: {
      written: 'wrote the default model settings (no providers: the offline demo model)',
      unwritable: 'cannot write the default model settings; running with the offline demo model',
      unknown: 'unknown model settings ignored',
    },
  });
  logger.debug(
    { file, providers: Object.keys(config.providers), models: Object.keys(config.models), tasks: Object.keys(config.tasks) },
    'read the model settings',
  );
  return config;
}

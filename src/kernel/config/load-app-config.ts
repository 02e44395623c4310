import type { Logger } from '../logger/logger.js';
import { APP_CONFIG_FILE_NAME, type AppConfig, AppConfigSchema } from './app-config.js';
import { loadConfigFile } from './load-config-file.js';

const HEADER = [
  'moonglass host settings. Written with the defaults on first start; edit freely.',
  'Delete this file to get a fresh default one at the next start.',
];

/** Reads `<configDir>/features.toml`, writing a commented default file when there is none. */
export function loadAppConfig(configDir: string, logger: Logger): AppConfig {
  return loadConfigFile({ configDir, fileName: APP_CONFIG_FILE_NAME, schema: AppConfigSchema, header: HEADER, logger });
}

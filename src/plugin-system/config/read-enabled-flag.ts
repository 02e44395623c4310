import { join } from 'node:path';
import { readTomlFile } from '../../kernel/config/read-toml-file.js';
import { describeError } from '../../kernel/errors/describe-error.js';
import type { Logger } from '../../kernel/logger/logger.js';
import { PLUGIN_CONFIG_FILE_NAME } from './plugin-config.js';

/**
 * Phase 1 of the plugin switch, read before any of the plugin's code is imported: the raw
 * `[plugin] enabled` of `<directory>/config.toml` (or of `file`, where `pluginConfigFile` puts
 * it), with no config model.
 *
 * Only a literal boolean `false` returns false. No file, no `[plugin]` table or no
 * `enabled` key returns true silently. A file that cannot be read or parsed, or an
 * `enabled` that is not a boolean, returns true (noted at debug level; the one warning the
 * user sees comes from phase 2, which reads the same file): switching off is an explicit
 * intent, and a broken file expresses none. This phase knows no coercion rules on
 * purpose; phase 2, the model's own validation after import (`reconcilePluginConfig`), is
 * the only place that decides what `enabled = "no"` means.
 */
export function readEnabledFlag(directory: string, logger: Logger, file: string = join(directory, PLUGIN_CONFIG_FILE_NAME)): boolean {
  let data: Record<string, unknown> | undefined;
  try {
    data = readTomlFile(file);
  } catch (error) {
    logger.debug({ file, error: describeError(error) }, '插件配置文件读不懂，开关按启用处理');
    return true;
  }
  const table = data?.['plugin'];
  if (typeof table !== 'object' || table === null || Array.isArray(table)) return true;
  const enabled = (table as Record<string, unknown>)['enabled'];
  if (enabled === false) return false;
  if (enabled !== undefined && enabled !== true) {
    logger.debug(
      { file, value: enabled },
      '插件配置中的 enabled 不是布尔值，开关先按启用处理，导入后由插件的配置模型作最终判定',
    );
  }
  return true;
}

import { join } from 'node:path';
import { parse } from 'smol-toml';
import type * as z from 'zod';
import { atomicWriteFile } from '../../kernel/config/atomic-write-file.js';
import { formatTomlValue } from '../../kernel/config/toml-values.js';
import { configIssues } from '../../kernel/config/validate-config.js';
import { describeSchema, objectShape } from '../../kernel/config/zod-introspection.js';
import { describeError } from '../../kernel/errors/describe-error.js';
import type { Logger } from '../../kernel/logger/logger.js';
import { insertTomlLines, type TomlInsertion } from './insert-toml-lines.js';
import { inspectPluginTable, type PluginTableFindings } from './inspect-plugin-table.js';
import { ensureConfigFolder } from './plugin-config-file.js';
import { PLUGIN_CONFIG_FILE_NAME, type PluginConfigModel } from './plugin-config.js';
import { pluginConfigDefaults } from './plugin-config-defaults.js';
import { readPluginConfigFile } from './read-plugin-config-file.js';
import { renderPluginConfig } from './render-plugin-config.js';
import { renderPluginField } from './render-plugin-field.js';
import { renderPluginTable } from './render-plugin-table.js';
import { assertSecretsPlaced } from './secret.js';
import { isTable, valueAt } from '../../kernel/config/value-at-path.js';

export interface ReconcilePluginConfigOptions<M extends PluginConfigModel> {
  /** The plugin's folder; its `config.toml` is read and written there unless `file` names another place. */
  directory: string;
  /** The config file (see `pluginConfigFile`); default `<directory>/config.toml`. */
  file?: string;
  /** The plugin's config model (`PluginConfig` or an extension of it). */
  model: M;
  /** Named in every log line and error. */
  pluginId: string;
  logger: Logger;
}

export interface ReconcilePluginConfigResult<T> {
  /** The configuration the plugin runs with, typed by its model. */
  config: T;
  /** True when there was no file and a default one was written. */
  generated: boolean;
  /** True when the file was written: generated, or missing fields added to it. */
  wroteFile: boolean;
  /**
   * True when `config` is the model's defaults as a whole rather than the file's values:
   * no file, a file that cannot be read or parsed, no `[plugin]` table, or values the model
   * rejects as a whole.
   */
  usedDefaults: boolean;
}

/**
 * The lines to add for the missing fields and sub-tables, with the values the plugin runs
 * on, each mapped to the dotted field it adds.
 */
function plannedInsertions(findings: PluginTableFindings, config: unknown): Map<TomlInsertion, string> {
  const insertions = new Map<TomlInsertion, string>();
  for (const { path, schema } of findings.missingFields) {
    const value = valueAt(config, path);
    // A field whose value has no TOML form (an optional field left unset) stays absent;
    // writing it commented out would make it "missing" again at every start.
    if (formatTomlValue(value) === undefined) continue;
    const lines = renderPluginField(path[path.length - 1]!, schema, value);
    insertions.set({ table: ['plugin', ...path.slice(0, -1)], at: 'table-end', lines }, path.join('.'));
  }
  for (const { path, schema } of findings.missingTables) {
    const value = valueAt(config, path);
    // An optional sub-table left unset stays absent, for the same reason.
    if (!isTable(value)) continue;
    const lines = ['', ...renderPluginTable(['plugin', ...path], objectShape(schema)!, value, describeSchema(schema))];
    insertions.set({ table: ['plugin', ...path.slice(0, -1)], at: 'file-end', lines }, path.join('.'));
  }
  return insertions;
}

/**
 * Settles a plugin's configuration from `<directory>/config.toml` and its config model.
 *
 * - No file: a commented default file is generated (info 「已生成插件配置」) and the
 *   defaults are used.
 * - A file that cannot be read or is not valid TOML, or that has no `[plugin]` table: the
 *   defaults, with a warning; the file is not touched.
 * - Otherwise field by field: a missing field takes its default and is added, with its
 *   comment, after the last key of its table; a missing sub-table is added at the end of
 *   the file. A value that does not validate runs on its default, with a warning naming
 *   `field`, `expected` and `actual` (the file keeps the user's value). Keys the model no
 *   longer declares stay in the file, with one warning listing them. Then the model
 *   validates the result as a whole (its refinements apply); if it refuses, all defaults.
 *   Keys outside `[plugin]` belong to no model and are left alone silently.
 *
 * The file is only ever added to: existing bytes and the file's line endings are kept, and
 * a second run changes nothing. If it cannot be written (read-only install, no permission)
 * the computed values are used, with a warning. Values are never invented: a field that
 * has no default and no valid value in the file throws `PluginConfigError`.
 *
 * No log line or error quotes a secret (`secret()`): an invalid secret is logged with
 * `actual: "(secret)"` and a reason that cannot echo it, and a whole-model refinement that
 * quotes one has it replaced. A model that marks a part of a field's value secret (an array
 * element, a record value) throws `PluginConfigError` before the file is read.
 */
export function reconcilePluginConfig<M extends PluginConfigModel>(
  options: ReconcilePluginConfigOptions<M>,
): ReconcilePluginConfigResult<z.output<M>> {
  const { directory, model, pluginId, logger } = options;
  const file = options.file ?? join(directory, PLUGIN_CONFIG_FILE_NAME);
  const where = { plugin: pluginId, file };
  assertSecretsPlaced(model, pluginId, file);
  const content = readPluginConfigFile(file);

  if (content.status === 'missing') {
    const defaults = pluginConfigDefaults(model, pluginId, file);
    try {
      // A generated default can always be generated again: no need to wait for the disk.
      ensureConfigFolder(file);
      atomicWriteFile(file, renderPluginConfig(model, defaults), { durable: false });
    } catch (error) {
      logger.warn({ ...where, error: describeError(error) }, '插件配置无法写入，按模型默认值运行');
      return { config: defaults, generated: false, wroteFile: false, usedDefaults: true };
    }
    logger.info(where, '已生成插件配置');
    return { config: defaults, generated: true, wroteFile: true, usedDefaults: true };
  }

  if (content.status === 'unusable') {
    const defaults = pluginConfigDefaults(model, pluginId, file);
    logger.warn({ ...where, reason: content.reason }, '插件配置文件读不懂，按模型默认值运行，文件保持原样');
    return { config: defaults, generated: false, wroteFile: false, usedDefaults: true };
  }

  const table = content.data['plugin'];
  if (!isTable(table)) {
    const defaults = pluginConfigDefaults(model, pluginId, file);
    logger.warn(where, '插件配置文件没有 [plugin] 表，按模型默认值运行，文件保持原样');
    return { config: defaults, generated: false, wroteFile: false, usedDefaults: true };
  }

  const findings = inspectPluginTable(model.shape as Record<string, z.ZodType>, table, { pluginId, file });
  for (const invalid of findings.invalidFields) {
    logger.warn({ ...where, ...invalid }, '插件配置字段的值非法，该字段按默认值运行');
  }
  if (findings.retiredKeys.length > 0) {
    logger.warn(
      { ...where, keys: findings.retiredKeys },
      `插件配置中的 ${findings.retiredKeys.join('、')} 已没有代码读取，原样保留在文件中`,
    );
  }

  let config: z.output<M>;
  let usedDefaults = false;
  const whole = model.safeParse(findings.input);
  if (whole.success) {
    config = whole.data;
  } else {
    config = pluginConfigDefaults(model, pluginId, file);
    usedDefaults = true;
    logger.warn({ ...where, issues: configIssues(whole.error, model, table) }, '插件配置未通过配置模型的整体校验，全部按默认值运行');
  }

  const insertions = plannedInsertions(findings, config);
  if (insertions.size === 0) return { config, generated: false, wroteFile: false, usedDefaults };
  const { text, placed } = insertTomlLines(content.text, [...insertions.keys()]);
  if (placed.length === 0) return { config, generated: false, wroteFile: false, usedDefaults };
  try {
    parse(text);
  } catch (error) {
    // The line scanner misread the file; adding nothing is better than breaking it.
    logger.warn({ ...where, error: describeError(error) }, '插件配置缺少的字段无法安全补进文件，按默认值运行，文件保持原样');
    return { config, generated: false, wroteFile: false, usedDefaults };
  }
  try {
    atomicWriteFile(file, text);
  } catch (error) {
    logger.warn({ ...where, error: describeError(error) }, '插件配置无法写入，按内存中的结果运行');
    return { config, generated: false, wroteFile: false, usedDefaults };
  }
  logger.info({ ...where, fields: placed.map((insertion) => insertions.get(insertion)) }, '已为插件配置补上缺少的字段');
  return { config, generated: false, wroteFile: true, usedDefaults };
}

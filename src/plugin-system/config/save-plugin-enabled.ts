import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'smol-toml';
import type * as z from 'zod';
import { atomicWriteFile } from '../../kernel/config/atomic-write-file.js';
import { isTable } from '../../kernel/config/value-at-path.js';
import { configIssues } from '../../kernel/config/validate-config.js';
import { describeError } from '../../kernel/errors/describe-error.js';
import { insertTomlLines } from './insert-toml-lines.js';
import { ensureConfigFolder } from './plugin-config-file.js';
import { PLUGIN_CONFIG_FILE_NAME, type PluginConfigModel } from './plugin-config.js';
import { readPluginConfigFile } from './read-plugin-config-file.js';
import { renderPluginConfig } from './render-plugin-config.js';
import { renderPluginField } from './render-plugin-field.js';
import type { PluginConfigFieldError } from './save-plugin-config.js';
import { scanTomlLines } from './scan-toml-lines.js';

/** The outcome of `savePluginEnabled`. */
export type SaveEnabledResult = { ok: true } | { ok: false; errors: PluginConfigFieldError[] };

/** `enabled = ...` at the start of a line, the key bare or quoted; group 1 ends after `=` and its spaces. */
const ENABLED_LINE = /^(\s*(?:enabled|"enabled"|'enabled')\s*=\s*)(.*)$/;
/** A one-token value and what follows it (spaces, a comment). */
const SIMPLE_VALUE = /^(?:true|false|"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_.+:-]+)(.*)$/;

function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** The parsed document of `text` as plain data, or undefined when it is not valid TOML. */
function parsed(text: string): unknown {
  try {
    return plain(parse(text));
  } catch {
    return undefined;
  }
}

/** The texts that switch `[plugin] enabled` in place: each `enabled = ...` line of the table rewritten, else the field added to it. */
function candidates(text: string, enabled: boolean, model: PluginConfigModel): string[] {
  const lines = scanTomlLines(text);
  const header = lines.findIndex((line) => line.kind === 'header' && !line.arrayTable && line.table!.length === 1 && line.table![0] === 'plugin');
  if (header === -1) {
    const eol = /\r?\n/.exec(text)?.[0] ?? '\n';
    const field = renderPluginField('enabled', model.shape['enabled'] as z.ZodType, enabled);
    const separator = text === '' ? '' : text.endsWith('\n') ? eol : `${eol}${eol}`;
    return [`${text}${separator}${['[plugin]', ...field].join(eol)}${eol}`];
  }
  const found: string[] = [];
  for (let index = header + 1; index < lines.length && lines[index]!.kind !== 'header'; index += 1) {
    const line = lines[index]!;
    if (line.kind !== 'content') continue;
    const body = text.slice(line.start, line.end).replace(/\r?\n$/, '');
    const match = ENABLED_LINE.exec(body);
    if (match === null) continue;
    const tail = SIMPLE_VALUE.exec(match[2]!)?.[1] ?? '';
    found.push(`${text.slice(0, line.start)}${match[1]}${String(enabled)}${tail}${text.slice(line.start + body.length)}`);
  }
  if (found.length > 0) return found;
  const field = renderPluginField('enabled', model.shape['enabled'] as z.ZodType, enabled);
  return [insertTomlLines(text, [{ table: ['plugin'], at: 'table-end', lines: field }]).text];
}

/**
 * Switches a plugin on or off in `<directory>/config.toml` (or `file`, see `pluginConfigFile`) by changing only `[plugin]
 * enabled`: the line is rewritten in place (its comment kept), or the field is added to
 * `[plugin]`, or a `[plugin]` table with it is added; every other byte stays. Nothing else in
 * the file is validated, so a field the model would reject (an invalid secret, say) neither
 * blocks the switch nor shows up in its result. The new text is parsed back and must differ
 * from the old one only in that switch; if it does not (an `enabled` written in a way the line
 * scanner cannot change), the file is left alone and the error says so. With no file, the
 * model's defaults are written with the switch set.
 */
export function savePluginEnabled(directory: string, model: PluginConfigModel, enabled: boolean, file: string = join(directory, PLUGIN_CONFIG_FILE_NAME)): SaveEnabledResult {
  const content = readPluginConfigFile(file);
  let text: string;
  if (content.status === 'unusable') {
    return { ok: false, errors: [{ field: '', reason: `${file} ${content.reason}; fix it by hand, then switch the plugin again` }] };
  }
  if (content.status === 'missing') {
    const defaults = model.safeParse({ enabled });
    if (!defaults.success) {
      const [issue] = configIssues(defaults.error, model, {});
      return { ok: false, errors: [{ field: issue!.path, reason: `the config model has no usable default: ${issue!.reason}` }] };
    }
    text = renderPluginConfig(model, defaults.data as Record<string, unknown>);
  } else {
    const before = plain(content.data) as Record<string, unknown>;
    const table = before['plugin'];
    const expected = { ...before, plugin: { ...(isTable(table) ? table : {}), enabled } };
    const switched = table === undefined || isTable(table) ? candidates(content.text, enabled, model).find((candidate) => isDeepStrictEqual(parsed(candidate), expected)) : undefined;
    if (switched === undefined) {
      return { ok: false, errors: [{ field: 'enabled', reason: `cannot change [plugin] enabled in ${file} without touching anything else; set enabled = ${String(enabled)} by hand` }] };
    }
    text = switched;
  }
  try {
    ensureConfigFolder(file);
    atomicWriteFile(file, text);
  } catch (error) {
    return { ok: false, errors: [{ field: '', reason: `cannot write ${file}: ${describeError(error)}` }] };
  }
  return { ok: true };
}

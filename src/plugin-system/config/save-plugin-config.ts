import { join } from 'node:path';
import type * as z from 'zod';
import { atomicWriteFile } from '../../kernel/config/atomic-write-file.js';
import { readTomlFile } from '../../kernel/config/read-toml-file.js';
import { objectShape } from '../../kernel/config/zod-introspection.js';
import { describeError } from '../../kernel/errors/describe-error.js';
import { PLUGIN_CONFIG_FILE_NAME, type PluginConfigModel } from './plugin-config.js';
import { renderPluginConfig } from './render-plugin-config.js';
import { secretFields } from './secret.js';
import { isTable, valueAt } from '../../kernel/config/value-at-path.js';

/** One field a save refused, with the reason. */
export interface PluginConfigFieldError {
  /** Dotted path inside `[plugin]` (`greeting`, `limits.per_day`); empty for the file as a whole. */
  field: string;
  reason: string;
}

/** The outcome of `savePluginConfig`: the saved configuration, or every reason it was refused. */
export type SaveResult<T = Record<string, unknown>> =
  | { ok: true; config: T }
  | { ok: false; errors: PluginConfigFieldError[] };

/** A copy of `values` with `path` set, copying only the tables along the path. */
function withValueAt(values: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined) return values;
  const inner = values[key];
  return { ...values, [key]: rest.length === 0 ? value : withValueAt(isTable(inner) ? inner : {}, rest, value) };
}

function unknownFields(shape: Record<string, z.ZodType>, values: Record<string, unknown>, prefix: string, errors: PluginConfigFieldError[]): void {
  for (const [key, value] of Object.entries(values)) {
    const field = prefix === '' ? key : `${prefix}.${key}`;
    const schema = shape[key];
    if (schema === undefined || !Object.hasOwn(shape, key)) {
      errors.push({ field, reason: 'unknown field: the config model does not declare it' });
      continue;
    }
    const inner = objectShape(schema);
    if (inner !== undefined && isTable(value)) unknownFields(inner, value, field, errors);
  }
}

/** The `[plugin]` table on disk, or undefined when there is none or it cannot be read. */
function diskTable(file: string): Record<string, unknown> | undefined {
  try {
    const table = readTomlFile(file)?.['plugin'];
    return isTable(table) ? table : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Saves edited values (from the management page) as `<directory>/config.toml`.
 *
 * The whole model validates the values at once: any bad field, and any key the model does
 * not declare, refuses the whole save, returning every such field with its reason, and the
 * file is not touched. A secret field (`secret()`) submitted as an empty string keeps the
 * value on disk, since the page shows secrets blank; with nothing on disk the empty string
 * is validated as given; the returned `config` shows such a kept secret as "" (a save never
 * reveals a secret the caller did not give). A valid save replaces the file atomically with the same renderer
 * that generates it, so comments and layout match a generated file. A file that cannot be
 * written is reported as an error for the file as a whole (`field: ''`).
 */
export function savePluginConfig<M extends PluginConfigModel>(
  directory: string,
  model: M,
  values: Record<string, unknown>,
): SaveResult<z.output<M>> {
  const file = join(directory, PLUGIN_CONFIG_FILE_NAME);
  const errors: PluginConfigFieldError[] = [];
  unknownFields(model.shape as Record<string, z.ZodType>, values, '', errors);

  let submitted = values;
  const secrets = [...secretFields(model)].map((field) => field.split('.'));
  const disk = secrets.some((path) => valueAt(values, path) === '') ? diskTable(file) : undefined;
  const keptFromDisk: string[][] = [];
  for (const path of secrets) {
    const kept = valueAt(disk, path);
    if (valueAt(values, path) === '' && kept !== undefined) {
      submitted = withValueAt(submitted, path, kept);
      keptFromDisk.push(path);
    }
  }

  const result = model.safeParse(submitted);
  if (!result.success) {
    for (const issue of result.error.issues) errors.push({ field: issue.path.map(String).join('.'), reason: issue.message });
  }
  if (errors.length > 0 || !result.success) return { ok: false, errors };

  try {
    atomicWriteFile(file, renderPluginConfig(model, result.data));
  } catch (error) {
    return { ok: false, errors: [{ field: '', reason: `cannot write ${file}: ${describeError(error)}` }] };
  }
  // A secret kept from disk is written back but never handed to the caller: whoever saves
  // gets back what they gave, so a save cannot be used to read a secret they do not know.
  let config = result.data as Record<string, unknown>;
  for (const path of keptFromDisk) config = withValueAt(config, path, '');
  return { ok: true, config: config as z.output<M> };
}

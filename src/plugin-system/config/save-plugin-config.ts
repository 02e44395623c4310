import { join } from 'node:path';
import type * as z from 'zod';
import { atomicWriteFile } from '../../kernel/config/atomic-write-file.js';
import { readTomlFile } from '../../kernel/config/read-toml-file.js';
import { secretIssueReason, valueAtPath } from '../../kernel/config/secret-schema.js';
import { configIssues } from '../../kernel/config/validate-config.js';
import { objectShape } from '../../kernel/config/zod-introspection.js';
import { describeError } from '../../kernel/errors/describe-error.js';
import { ensureConfigFolder } from './plugin-config-file.js';
import { PLUGIN_CONFIG_FILE_NAME, type PluginConfigModel } from './plugin-config.js';
import { renderPluginConfig } from './render-plugin-config.js';
import { misplacedSecretReason, misplacedSecrets, secretFields } from './secret.js';
import { isTable, valueAt } from '../../kernel/config/value-at-path.js';

/** One field a save refused, with the reason. */
export interface PluginConfigFieldError {
  /** Dotted path inside `[plugin]` (`greeting`, `limits.per_day`); empty for the file as a whole. */
  field: string;
  /** Why the value was refused. */
  reason: string;
}

/**
 * The outcome of `savePluginConfig`: the saved configuration, or every reason it was
 * refused. `warnings` (present only when there are some) names the secrets that were kept
 * in the file although they do not validate; the plugin runs on their defaults.
 */
export type SaveResult<T = Record<string, unknown>> =
  | {
      /** The values were valid and written. */
      ok: true;
      /** The configuration as saved and validated, defaults filled in. */
      config: T;
      /** Secrets kept in the file although they do not validate; absent when there are none. */
      warnings?: PluginConfigFieldError[];
    }
  | {
      /** Nothing was written. */
      ok: false;
      /** Every field that was refused, with the reason. */
      errors: PluginConfigFieldError[];
    };

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

/** The schema of the field at `path` (through nested objects), or undefined. */
function fieldSchema(model: PluginConfigModel, path: readonly string[]): z.ZodType | undefined {
  let shape: Record<string, z.ZodType> | undefined = model.shape as Record<string, z.ZodType>;
  let schema: z.ZodType | undefined;
  for (const key of path) {
    schema = shape !== undefined && Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (schema === undefined) return undefined;
    shape = objectShape(schema);
  }
  return schema;
}

/** A copy of `values` without the value at `path`. */
function withoutValueAt(values: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined || !Object.hasOwn(values, key)) return values;
  const copy = { ...values };
  const inner = copy[key];
  if (rest.length === 0) delete copy[key];
  else if (isTable(inner)) copy[key] = withoutValueAt(inner, rest);
  return copy;
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
 * Saves edited values (from the management page) as `<directory>/config.toml`, or as `file`
 * when given (the plugin's config file as `pluginConfigFile` places it).
 *
 * The whole model validates the values at once: any bad field, and any key the model does
 * not declare, refuses the whole save, returning every such field with its reason, and the
 * file is not touched. A secret field (`secret()`) submitted as an empty string keeps the
 * value on disk, since the page shows secrets blank; with nothing on disk the empty string
 * is validated as given; the returned `config` shows such a kept secret as "" (a save never
 * reveals a secret the caller did not give). A kept secret that does not validate (say
 * `api_key = 123` where a string is wanted) does not block the save: it stays in the file as
 * it was, the model validates the rest with the field's default, and a warning names the
 * field; a field without a default refuses the save, asking for a new value. No reason
 * quotes a secret (see `configIssues`). A valid save replaces the file atomically with the
 * same renderer that generates it, so comments and layout match a generated file. A file
 * that cannot be written is reported as an error for the file as a whole (`field: ''`). A
 * model that marks a part of a field's value secret is refused (see `secret()`).
 */
export function savePluginConfig<M extends PluginConfigModel>(
  directory: string,
  model: M,
  values: Record<string, unknown>,
  file: string = join(directory, PLUGIN_CONFIG_FILE_NAME),
): SaveResult<z.output<M>> {
  const misplaced = misplacedSecrets(model);
  if (misplaced.length > 0) return { ok: false, errors: misplaced.map((entry) => ({ field: entry.field, reason: misplacedSecretReason(entry) })) };
  const errors: PluginConfigFieldError[] = [];
  const warnings: PluginConfigFieldError[] = [];
  unknownFields(model.shape as Record<string, z.ZodType>, values, '', errors);

  let submitted = values;
  const secrets = [...secretFields(model)].map((field) => field.split('.'));
  const disk = secrets.some((path) => valueAt(values, path) === '') ? diskTable(file) : undefined;
  const keptFromDisk: string[][] = [];
  const invalidOnDisk: { path: string[]; value: unknown }[] = [];
  for (const path of secrets) {
    const kept = valueAt(disk, path);
    if (valueAt(values, path) !== '' || kept === undefined) continue;
    const schema = fieldSchema(model, path)!;
    const check = schema.safeParse(kept);
    if (check.success) {
      submitted = withValueAt(submitted, path, kept);
      keptFromDisk.push(path);
      continue;
    }
    const field = path.join('.');
    const issue = check.error.issues[0]!;
    const why = secretIssueReason(issue, valueAtPath(kept, issue.path));
    if (!schema.safeParse(undefined).success) {
      errors.push({ field, reason: `the value in the file does not validate (${why}) and the field has no default: enter a new value` });
      continue;
    }
    // Validate the rest on the field's default; the file keeps what the user wrote.
    submitted = withoutValueAt(submitted, path);
    invalidOnDisk.push({ path, value: kept });
    warnings.push({ field, reason: `the value in the file does not validate (${why}); it was kept there, and the plugin runs on the field's default until a new value is entered` });
  }

  const result = model.safeParse(submitted);
  if (!result.success) {
    // A secret already refused for its value on disk is not refused a second time for the "" that stood for it.
    const refused = new Set(errors.map((error) => error.field));
    for (const issue of configIssues(result.error, model, submitted)) {
      if (!refused.has(issue.path)) errors.push({ field: issue.path, reason: issue.reason });
    }
  }
  if (errors.length > 0 || !result.success) return { ok: false, errors };

  let written = result.data as Record<string, unknown>;
  for (const { path, value } of invalidOnDisk) written = withValueAt(written, path, value);
  try {
    ensureConfigFolder(file);
    atomicWriteFile(file, renderPluginConfig(model, written));
  } catch (error) {
    return { ok: false, errors: [{ field: '', reason: `cannot write ${file}: ${describeError(error)}` }] };
  }
  // A secret kept from disk is written back but never handed to the caller: whoever saves
  // gets back what they gave, so a save cannot be used to read a secret they do not know.
  let config = result.data as Record<string, unknown>;
  for (const path of keptFromDisk) config = withValueAt(config, path, '');
  return warnings.length === 0 ? { ok: true, config: config as z.output<M> } : { ok: true, config: config as z.output<M>, warnings };
}

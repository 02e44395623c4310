import type * as z from 'zod';
import { containsSecret, reachesSecret, SECRET_PLACEHOLDER, secretIssueReason, valueAtPath } from '../../kernel/config/secret-schema.js';
import { formatTomlValue } from '../../kernel/config/toml-values.js';
import { objectShape } from '../../kernel/config/zod-introspection.js';
import { coerceBoolean } from './coerce-boolean.js';
import { PluginConfigError } from './plugin-config-error.js';

/** A field of the model that the file does not set. Paths are relative to `[plugin]`. */
export interface MissingPluginField {
  path: readonly string[];
  schema: z.ZodType;
}

/** A field whose value in the file does not validate; it runs on its default. */
export interface InvalidPluginField {
  /** Dotted path inside `[plugin]`. */
  field: string;
  /** What the model wanted, in zod's words (for a secret field, rebuilt so that it cannot quote the value). */
  expected: string;
  /** The value found in the file, written as TOML; `(secret)` for a field that is or holds a secret. */
  actual: string;
}

/** What comparing `[plugin]` with the model found, field by field. */
export interface PluginTableFindings {
  /**
   * The input for the model: every valid value from the file; missing and invalid fields are
   * left out so that their defaults apply.
   */
  input: Record<string, unknown>;
  /** Missing fields that are not objects (they would be added to their table). */
  missingFields: MissingPluginField[];
  /** Missing object fields (they would be added as new sub-tables). */
  missingTables: MissingPluginField[];
  invalidFields: InvalidPluginField[];
  /** Dotted paths of keys in the file that the model does not declare. */
  retiredKeys: string[];
}

/** Names the plugin and file for the errors thrown when a field has no usable value. */
export interface PluginTableContext {
  pluginId: string;
  file: string;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** The issues of one field as one line; an issue on a secret never uses its message, which may quote the value. */
function zodReasons(schema: z.ZodType, raw: unknown, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const message = reachesSecret(schema, issue.path) ? secretIssueReason(issue, valueAtPath(raw, issue.path)) : issue.message;
      return issue.path.length === 0 ? message : `${issue.path.map(String).join('.')}: ${message}`;
    })
    .join('; ');
}

function hasDefault(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

function inspect(
  shape: Record<string, z.ZodType>,
  data: Record<string, unknown>,
  path: readonly string[],
  findings: PluginTableFindings,
  context: PluginTableContext,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    if (!Object.hasOwn(shape, key)) findings.retiredKeys.push([...path, key].join('.'));
  }
  for (const [key, schema] of Object.entries(shape)) {
    const fieldPath = [...path, key];
    const field = fieldPath.join('.');
    const raw = Object.hasOwn(data, key) ? data[key] : undefined;
    const inner = objectShape(schema);
    if (raw === undefined) {
      if (inner === undefined && !hasDefault(schema)) {
        throw new PluginConfigError(context.pluginId, context.file, field, 'is required, has no default, and the file does not set it');
      }
      (inner === undefined ? findings.missingFields : findings.missingTables).push({ path: fieldPath, schema });
      // A sub-table without a default of its own is built from its fields' defaults.
      if (inner !== undefined && !hasDefault(schema)) input[key] = inspect(inner, {}, fieldPath, emptyFindings(), context);
      continue;
    }
    if (inner !== undefined && isTable(raw)) {
      input[key] = inspect(inner, raw, fieldPath, findings, context);
      continue;
    }
    const value = coerceBoolean(schema, raw);
    const result = schema.safeParse(value);
    if (result.success) {
      input[key] = value;
      continue;
    }
    const expected = zodReasons(schema, raw, result.error);
    const actual = containsSecret(schema) ? SECRET_PLACEHOLDER : (formatTomlValue(raw) ?? String(raw));
    findings.invalidFields.push({ field, expected, actual });
    if (hasDefault(schema)) continue;
    if (inner === undefined) {
      throw new PluginConfigError(context.pluginId, context.file, field, `has an invalid value (${expected}) and no default to fall back on`);
    }
    input[key] = inspect(inner, {}, fieldPath, emptyFindings(), context);
  }
  return input;
}

function emptyFindings(): PluginTableFindings {
  return { input: {}, missingFields: [], missingTables: [], invalidFields: [], retiredKeys: [] };
}

/**
 * Compares the `[plugin]` table of a file with the config model, field by field and into
 * sub-tables: which fields are missing, which values do not validate (each falls back to
 * its default on its own), and which keys the model no longer declares. A field that has
 * no usable value and no default throws `PluginConfigError`: values are never invented.
 */
export function inspectPluginTable(
  shape: Record<string, z.ZodType>,
  data: Record<string, unknown>,
  context: PluginTableContext,
): PluginTableFindings {
  const findings = emptyFindings();
  findings.input = inspect(shape, data, [], findings, context);
  return findings;
}

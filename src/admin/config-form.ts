import type * as z from 'zod';
import { describeSchema, objectShape, schemaType, unwrapSchema } from '../kernel/config/zod-introspection.js';

/** One field of a plugin's config form, derived from its zod model. */
export interface ConfigFormField {
  key: string;
  /** How the page edits it. `json` for anything without a better control (records, unions). */
  kind: 'boolean' | 'integer' | 'number' | 'string' | 'enum' | 'list' | 'object' | 'json';
  /** The field's `.describe()` text, shown as help. */
  description: string | undefined;
  /** For `enum`: the allowed values. */
  options?: string[];
  /** A secret field: its value is never sent; `secretSet` says whether the disk holds one. */
  secret: boolean;
  secretSet?: boolean;
  /** The current value (not for secrets). */
  value?: unknown;
  /** For `object`: its fields. */
  fields?: ConfigFormField[];
}

function kindOf(schema: z.ZodType): ConfigFormField['kind'] {
  const type = schemaType(schema);
  const inner = unwrapSchema(schema) as unknown as { format?: string; element?: z.ZodType };
  if (type === 'boolean') return 'boolean';
  if (type === 'number') return inner.format === 'safeint' || inner.format === 'int32' ? 'integer' : 'number';
  if (type === 'string') return 'string';
  if (type === 'enum') return 'enum';
  if (type === 'object') return 'object';
  if (type === 'array' && inner.element !== undefined && ['string', 'number'].includes(schemaType(inner.element))) return 'list';
  return 'json';
}

/**
 * The form of a config model: every field with its kind, help text and current value, in
 * declaration order. Secrets (`secrets` holds their dotted paths, from `secretFields`) carry
 * only whether a value is set, never the value nor the fields of a secret object.
 */
export function describeConfigForm(model: z.ZodObject, values: Record<string, unknown>, secrets: ReadonlySet<string>, prefix = ''): ConfigFormField[] {
  const shape = objectShape(model) ?? {};
  return Object.entries(shape).map(([key, schema]): ConfigFormField => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const secret = secrets.has(path);
    // A secret object is one secret field: edited as JSON text, never opened into its fields.
    const kind = secret && kindOf(schema) === 'object' ? 'json' : kindOf(schema);
    const value = values[key];
    const field: ConfigFormField = { key, kind, description: describeSchema(schema), secret };
    if (kind === 'enum' && !secret) field.options = [...((unwrapSchema(schema) as unknown as { options: readonly string[] }).options ?? [])].map(String);
    if (secret) {
      field.secretSet = typeof value === 'string' ? value !== '' : value !== undefined && value !== null;
    } else if (kind === 'object') {
      const nested = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
      field.fields = describeConfigForm(unwrapSchema(schema) as z.ZodObject, nested, secrets, path);
    } else {
      field.value = value;
    }
    return field;
  });
}

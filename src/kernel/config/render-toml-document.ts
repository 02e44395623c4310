import type * as z from 'zod';
import { formatTomlKey, formatTomlValue } from './toml-values.js';
import { describeSchema, objectShape } from './zod-introspection.js';

export interface RenderTomlOptions {
  /** Lines written at the top as `# ...` comments. */
  header: readonly string[];
  /** The object schema whose fields are rendered (descriptions become comments). */
  schema: z.ZodObject;
  /** The values to write (usually the schema's defaults, or validated user values). */
  values: Record<string, unknown>;
}

function commentLines(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text.split(/\r?\n/).map((line) => (line === '' ? '#' : `# ${line}`));
}

function renderField(key: string, schema: z.ZodType, value: unknown): string[] {
  const lines = commentLines(describeSchema(schema));
  const formatted = formatTomlValue(value);
  lines.push(formatted === undefined ? `# ${formatTomlKey(key)} = (not set)` : `${formatTomlKey(key)} = ${formatted}`);
  return lines;
}

/**
 * A commented TOML document from a zod object schema: the header, then top-level scalar
 * fields, then one `[table]` per object field. Each field's `.describe()` text becomes the
 * comment above it, so the file explains itself to the person editing it.
 */
export function renderTomlDocument(options: RenderTomlOptions): string {
  const out: string[] = options.header.flatMap((line) => commentLines(line));
  const sections: string[] = [];
  const scalars: string[] = [];
  for (const [key, fieldSchema] of Object.entries(options.schema.shape as Record<string, z.ZodType>)) {
    const value = options.values[key];
    const shape = objectShape(fieldSchema);
    if (shape === undefined) {
      scalars.push(...renderField(key, fieldSchema, value));
      continue;
    }
    const table = (value ?? {}) as Record<string, unknown>;
    sections.push('', ...commentLines(describeSchema(fieldSchema)), `[${formatTomlKey(key)}]`);
    for (const [innerKey, innerSchema] of Object.entries(shape)) {
      sections.push(...renderField(innerKey, innerSchema, table[innerKey]));
    }
  }
  if (scalars.length > 0) out.push('', ...scalars);
  out.push(...sections);
  return `${out.join('\n')}\n`;
}

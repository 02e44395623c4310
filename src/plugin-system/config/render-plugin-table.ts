import type * as z from 'zod';
import { formatTomlKey } from '../../kernel/config/toml-values.js';
import { describeSchema, objectShape } from '../../kernel/config/zod-introspection.js';
import { commentLines } from './comment-lines.js';
import { renderPluginField } from './render-plugin-field.js';

/** The `[a.b]` header line of the table at `path`. */
function tableHeaderLine(path: readonly string[]): string {
  return `[${path.map(formatTomlKey).join('.')}]`;
}

function asTable(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * One table and everything under it: `description` as comments, the `[path]` header, the
 * fields that are not objects in declaration order, then each object field as its own
 * sub-table `[path.<name>]` (recursively), each after a blank line.
 */
export function renderPluginTable(
  path: readonly string[],
  shape: Record<string, z.ZodType>,
  values: unknown,
  description?: string,
): string[] {
  const table = asTable(values);
  const lines = [...commentLines(description), tableHeaderLine(path)];
  const subTables: string[] = [];
  for (const [key, schema] of Object.entries(shape)) {
    const inner = objectShape(schema);
    if (inner === undefined) {
      lines.push(...renderPluginField(key, schema, table[key]));
    } else {
      subTables.push('', ...renderPluginTable([...path, key], inner, table[key], describeSchema(schema)));
    }
  }
  return [...lines, ...subTables];
}

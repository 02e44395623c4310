import type * as z from 'zod';
import { formatTomlKey, formatTomlValue } from '../../kernel/config/toml-values.js';
import { describeSchema } from '../../kernel/config/zod-introspection.js';
import { commentLines } from './comment-lines.js';

/**
 * The lines of one `key = value` field: its description as comments above it, then the
 * value. A value with no TOML form (undefined, null) is written commented out, so the key
 * stays visible without inventing a value for it.
 */
export function renderPluginField(key: string, schema: z.ZodType, value: unknown): string[] {
  const lines = commentLines(describeSchema(schema));
  const formatted = formatTomlValue(value);
  lines.push(formatted === undefined ? `# ${formatTomlKey(key)} = (未设置)` : `${formatTomlKey(key)} = ${formatted}`);
  return lines;
}

import { readFileSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import { describeError } from '../../kernel/errors/describe-error.js';

/** What reading a plugin's `config.toml` found. */
export type PluginConfigFileContent =
  /** No file (or the plugin folder is not a folder). */
  | { status: 'missing' }
  /** A file that cannot be read or is not valid TOML; `reason` says which and where. */
  | { status: 'unusable'; reason: string }
  /** The exact text and its parsed tables, as plain objects. */
  | { status: 'read'; text: string; data: Record<string, unknown> };

/** smol-toml builds null-prototype tables; zod and equality checks want plain objects. Dates stay dates. */
function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlain(item)]));
  }
  return value;
}

/** Reads and parses `file`, keeping its text byte for byte so that additions can be spliced in. */
export function readPluginConfigFile(file: string): PluginConfigFileContent {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    return { status: 'unusable', reason: `cannot be read: ${describeError(error)}` };
  }
  try {
    return { status: 'read', text, data: toPlain(parse(text)) as Record<string, unknown> };
  } catch (error) {
    if (!(error instanceof TomlError)) return { status: 'unusable', reason: `cannot be parsed: ${describeError(error)}` };
    return { status: 'unusable', reason: `is not valid TOML at line ${error.line}, column ${error.column}: ${error.message.split('\n')[0]}` };
  }
}

import { readFileSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import { describeError } from '../errors/describe-error.js';
import { ConfigFileError } from '../errors/config-file-error.js';

/** The parsed table of a TOML file, or `undefined` when the file does not exist. */
export function readTomlFile(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigFileError(file, [{ path: '', reason: `cannot be read: ${describeError(error)}` }], { cause: error });
  }
  try {
    // smol-toml returns null-prototype objects; copy into plain ones for zod and equality checks.
    return JSON.parse(JSON.stringify(parse(text))) as Record<string, unknown>;
  } catch (error) {
    const where = error instanceof TomlError ? ` at line ${error.line}, column ${error.column}` : '';
    const reason = error instanceof TomlError ? error.message.split('\n')[0] : describeError(error);
    throw new ConfigFileError(file, [{ path: '', reason: `is not valid TOML${where}: ${reason}` }], { cause: error });
  }
}

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

/**
 * `readTomlFile` for files that hold secrets (API keys, tokens): a syntax error is re-thrown
 * without its cause, because the TOML parser's own message quotes the offending line. The
 * issue keeps the line and column.
 */
export function readSecretTomlFile(file: string): Record<string, unknown> | undefined {
  try {
    return readTomlFile(file);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new ConfigFileError(error.file, error.issues);
    throw error;
  }
}

import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';

/** How deep `cause` chains are followed (a plugin error wraps the import error, which may wrap more). */
const MAX_CAUSES = 8;

/** A place in a file; `line` and `column` count from 1 and are absent when unknown. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

/** `file:line:column`, as editors and terminals recognise it. */
export function formatLocation(location: SourceLocation): string {
  return [location.file, location.line, location.column].filter((part) => part !== undefined).join(':');
}

/**
 * Where in the files of `folder` (a plugin's folder) `error` arose, following `cause`: the
 * first stack frame inside the folder (`plugin.ts:3:7` for a throw at import), the position a
 * TypeScript syntax error names (esbuild's `plugin.ts:3:6: ERROR: …`), or, for a module that
 * cannot be found, the file that imports it and the line of that import. Files under the
 * folder's own `node_modules` do not count. Undefined when nothing points into the folder.
 */
export function errorLocation(error: unknown, folder: string): SourceLocation | undefined {
  const folders = [...new Set([folder, realPath(folder)])];
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && current !== undefined && current !== null; depth += 1) {
    const found = locationInText(textOf(current), folders) ?? missingModuleLocation(current, folders);
    if (found !== undefined) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function textOf(error: unknown): string {
  if (error instanceof Error) return `${error.message}\n${error.stack ?? ''}`;
  return typeof error === 'string' ? error : '';
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first `<folder>/…:line[:column]` in `text` (paths or file:// URLs, a `?query` skipped). */
function locationInText(text: string, folders: readonly string[]): SourceLocation | undefined {
  let best: { index: number; location: SourceLocation } | undefined;
  for (const folder of folders) {
    const pattern = new RegExp(`(?:file://)?(${escapeRegExp(folder + sep)}[^\\s:()?'"]+)(?:\\?[^\\s:()'"]*)?:(\\d+)(?::(\\d+))?`, 'g');
    for (const match of text.matchAll(pattern)) {
      if (match[1]!.includes(`${sep}node_modules${sep}`)) continue;
      if (best === undefined || match.index < best.index) {
        best = { index: match.index, location: { file: match[1]!, line: Number(match[2]), ...(match[3] === undefined ? {} : { column: Number(match[3]) }) } };
      }
      break;
    }
  }
  return best?.location;
}

/** Node's "Cannot find module 'x' imported from <file>": that file, at the line importing `x`. */
function missingModuleLocation(error: unknown, folders: readonly string[]): SourceLocation | undefined {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const match = /Cannot find (?:module|package) '([^']+)' imported from (.+)$/m.exec(error.message);
  if (match === null) return undefined;
  const importer = match[2]!.trim().replace(/^file:\/\//, '');
  if (!folders.some((folder) => importer.startsWith(folder + sep)) || !existsSync(importer)) return undefined;
  // The specifier as written is not in the message (only its resolution): a path is matched
  // by its last part (`'./lib/a.js'` for …/lib/a.js, or `'./lib/a'`), a package by its name.
  const missing = match[1]!;
  const isPath = missing.startsWith('/') || missing.startsWith('file:');
  const stem = escapeRegExp((missing.split('/').pop() ?? missing).replace(/\.[cm]?[jt]sx?$/, ''));
  const quoted = isPath ? new RegExp(`['"](?:[^'"]*/)?${stem}(?:\\.[cm]?[jt]sx?)?['"]`) : new RegExp(`['"]${escapeRegExp(missing)}(?:/[^'"]*)?['"]`);
  const lines = readFileSync(importer, 'utf8').split('\n');
  const index = lines.findIndex((line) => /\b(import|from|require)\b/.test(line) && quoted.test(line));
  return index < 0 ? { file: importer } : { file: importer, line: index + 1 };
}

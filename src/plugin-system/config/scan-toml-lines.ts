import { parse } from 'smol-toml';

/** One physical line of a TOML document, classified for splicing. */
export interface ScannedTomlLine {
  /** Offset of the line's first character. */
  start: number;
  /** Offset just past the line's terminator (`\n` or `\r\n`), or the end of the text. */
  end: number;
  /** False only for a last line with no terminator. */
  terminated: boolean;
  /**
   * `header`: a `[table]` or `[[array]]` line. `content`: part of a key/value pair,
   * including the continuation lines of multi-line strings and arrays. `trivia`: blank or
   * comment-only.
   */
  kind: 'header' | 'content' | 'trivia';
  /** For a header: the decoded key path (`[plugin."a.b"]` gives `['plugin', 'a.b']`). */
  table?: readonly string[];
  /** For a header: true for `[[array]]` tables. */
  arrayTable?: boolean;
}

type Mode = 'normal' | 'multiline-basic' | 'multiline-literal';

interface ScanState {
  mode: Mode;
  /** Open `[` / `{` of a value that continues on later lines. */
  depth: number;
}

function quoteRun(text: string, index: number, quote: string): number {
  let end = index;
  while (text[end] === quote) end += 1;
  return end - index;
}

/** Follows strings, brackets and comments through one line of a key/value pair. */
function scanValueLine(line: string, state: ScanState): void {
  let index = 0;
  while (index < line.length) {
    if (state.mode !== 'normal') {
      const quote = state.mode === 'multiline-basic' ? '"' : "'";
      const char = line[index];
      if (char === '\\' && state.mode === 'multiline-basic') {
        index += 2;
      } else if (char === quote && quoteRun(line, index, quote) >= 3) {
        // Up to two quotes may sit just before the closing three: `""""` is `"` then the end.
        index += quoteRun(line, index, quote);
        state.mode = 'normal';
      } else {
        index += 1;
      }
      continue;
    }
    const char = line[index];
    if (char === '#') return;
    if (char === '"' || char === "'") {
      if (quoteRun(line, index, char) >= 3) {
        state.mode = char === '"' ? 'multiline-basic' : 'multiline-literal';
        index += 3;
        continue;
      }
      index += 1;
      while (index < line.length && line[index] !== char) index += char === '"' && line[index] === '\\' ? 2 : 1;
      index += 1;
      continue;
    }
    if (char === '[' || char === '{') state.depth += 1;
    if ((char === ']' || char === '}') && state.depth > 0) state.depth -= 1;
    index += 1;
  }
}

/** The key path of a header line, decoded by the TOML parser itself so quoting rules match. */
function decodeHeader(line: string): { table: string[]; arrayTable: boolean } | undefined {
  let parsed: unknown;
  try {
    parsed = parse(line);
  } catch {
    return undefined;
  }
  const table: string[] = [];
  let current = parsed;
  for (;;) {
    if (Array.isArray(current)) return { table, arrayTable: true };
    const keys = Object.keys(current as object);
    if (keys.length !== 1) return table.length === 0 ? undefined : { table, arrayTable: false };
    const key = keys[0]!;
    table.push(key);
    current = (current as Record<string, unknown>)[key];
  }
}

/**
 * Splits a valid TOML document into lines and tells table headers, key/value lines and
 * blank or comment lines apart, without being fooled by `[` inside strings, multi-line
 * strings or multi-line arrays. Offsets let callers insert text without touching the rest.
 */
export function scanTomlLines(text: string): ScannedTomlLine[] {
  const lines: ScannedTomlLine[] = [];
  const state: ScanState = { mode: 'normal', depth: 0 };
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const terminated = newline !== -1;
    const end = terminated ? newline + 1 : text.length;
    const contentEnd = terminated && text[newline - 1] === '\r' ? newline - 1 : terminated ? newline : end;
    const line = text.slice(start, contentEnd);
    const record: ScannedTomlLine = { start, end, terminated, kind: 'content' };
    if (state.mode === 'normal' && state.depth === 0) {
      const trimmed = line.trimStart();
      if (trimmed === '' || trimmed.startsWith('#')) {
        record.kind = 'trivia';
      } else if (trimmed.startsWith('[')) {
        const header = decodeHeader(line);
        if (header !== undefined) {
          record.kind = 'header';
          record.table = header.table;
          record.arrayTable = header.arrayTable;
        }
      } else {
        scanValueLine(line, state);
      }
    } else {
      scanValueLine(line, state);
    }
    lines.push(record);
    start = end;
  }
  return lines;
}

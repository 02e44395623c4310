import { isDeepStrictEqual } from 'node:util';
import { parse } from 'smol-toml';
import { formatTomlKey, formatTomlValue } from '../kernel/config/toml-values.js';
import { scanTomlLines, type ScannedTomlLine } from '../plugin-system/config/scan-toml-lines.js';

/** The outcome of `replaceTomlArrayTables`: the new text, or why the file cannot be rewritten by line. */
export type ReplaceArrayTablesResult = { ok: true; text: string } | { ok: false; reason: string };

/** As data compares after a TOML round trip: no undefined or null fields (TOML has no null). */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (item === null ? undefined : item))) as unknown;
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    return plain(parse(text)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The lines of one `[[key]]` entry: its fields inline (a table as an inline table), in the entry's key order; null and undefined fields are left out. */
function entryLines(key: string, entry: Record<string, unknown>): string[] | undefined {
  const lines = [`[[${formatTomlKey(key)}]]`];
  for (const [field, value] of Object.entries(entry)) {
    if (value === undefined || value === null) continue;
    const formatted = formatTomlValue(value);
    if (formatted === undefined) return undefined;
    lines.push(`${formatTomlKey(field)} = ${formatted}`);
  }
  return lines;
}

/** True for a header of `key`'s array tables or one of their sub-tables (`[[rules]]`, `[rules.persona]`). */
function belongs(line: ScannedTomlLine, key: string): boolean {
  return line.kind === 'header' && line.table![0] === key;
}

/**
 * The text for one run of `[[key]]` blocks (`span`) that keeps what did not change: entry N
 * equal to the old entry N is its old block, byte for byte; the others are `rendered`; the
 * blank and comment lines between old blocks N-1 and N stay between the new ones. Undefined
 * when the run's blocks cannot be told apart (a sub-table before the first `[[key]]`).
 */
function keepingUnchanged(
  text: string,
  lines: readonly ScannedTomlLine[],
  span: { from: number; to: number },
  key: string,
  old: unknown,
  entries: readonly Record<string, unknown>[],
  rendered: readonly string[],
  eol: string,
): string | undefined {
  const inSpan = lines.filter((line) => line.start >= span.from && line.end <= span.to);
  const starts = inSpan.flatMap((line, index) => (line.kind === 'header' && line.arrayTable === true && line.table!.length === 1 && line.table![0] === key ? [index] : []));
  if (!Array.isArray(old) || starts[0] !== 0 || starts.length !== old.length) return undefined;
  const blocks = starts.map((start, position) => {
    const next = starts[position + 1] ?? inSpan.length;
    let last = start;
    for (let index = start + 1; index < next; index += 1) if (inSpan[index]!.kind !== 'trivia') last = index;
    const end = inSpan[last]!;
    return { from: inSpan[start]!.start, to: end.end, text: text.slice(inSpan[start]!.start, end.end) + (end.terminated ? '' : eol) };
  });
  let out = '';
  entries.forEach((entry, position) => {
    if (position > 0) out += position < blocks.length ? text.slice(blocks[position - 1]!.to, blocks[position]!.from) : eol;
    out += position < blocks.length && isDeepStrictEqual(plain(old[position]), plain(entry)) ? blocks[position]!.text : rendered[position]!;
  });
  return out;
}

/**
 * Replaces every `[[key]]` table of a TOML document (with its sub-tables, and the blank and
 * comment lines between them) by `entries`, written as `[[key]]` blocks with inline values,
 * where the first of the old blocks stood (at the end of the file when there was none), so
 * every other byte of the file stays: comments, other tables, their order, the line endings.
 * Comment lines just before the first block and after the last one's fields stay too, and so
 * do an unchanged entry's old block and the comments between blocks (when the blocks stand
 * together).
 * The new text is parsed back and must differ from the old one only in `key`; when it does
 * not (the key is written inline, `rules = [...]`, or the file does not parse) nothing is
 * written and the reason says so.
 */
export function replaceTomlArrayTables(text: string, key: string, entries: readonly Record<string, unknown>[]): ReplaceArrayTablesResult {
  const before = parsed(text);
  if (before === undefined) return { ok: false, reason: 'is not valid TOML' };
  const eol = /\r?\n/.exec(text)?.[0] ?? '\n';
  const blocks: string[][] = [];
  for (const entry of entries) {
    const lines = entryLines(key, entry);
    if (lines === undefined) return { ok: false, reason: `a [[${key}]] entry has a value TOML cannot hold` };
    blocks.push(lines);
  }
  const renderedBlocks = blocks.map((lines) => lines.join(eol) + eol);
  const rendered = renderedBlocks.join(eol);

  const lines = scanTomlLines(text);
  // Spans [from, to) of lines that belong to the key's tables: a header of it up to its last field line.
  const spans: { from: number; to: number }[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (!belongs(lines[index]!, key)) continue;
    let last = index;
    let next = index + 1;
    for (; next < lines.length && !(lines[next]!.kind === 'header' && !belongs(lines[next]!, key)); next += 1) {
      if (lines[next]!.kind !== 'trivia') last = next;
    }
    spans.push({ from: lines[index]!.start, to: lines[last]!.end });
    index = next - 1;
  }

  let result: string;
  if (spans.length === 0) {
    if (entries.length === 0) return { ok: true, text };
    const separator = text === '' ? '' : text.endsWith('\n') ? eol : `${eol}${eol}`;
    result = `${text}${separator}${rendered}`;
  } else {
    // One run of blocks: the entries that did not change keep their old text, and the comments between blocks stay where they stood.
    const kept = spans.length === 1 ? keepingUnchanged(text, lines, spans[0]!, key, before[key], entries, renderedBlocks, eol) : undefined;
    let cursor = 0;
    result = '';
    spans.forEach((span, position) => {
      result += text.slice(cursor, span.from);
      if (position === 0) result += kept ?? rendered;
      cursor = span.to;
    });
    result += text.slice(cursor);
  }

  const expected: Record<string, unknown> = { ...before };
  delete expected[key];
  if (entries.length > 0) expected[key] = plain(entries);
  if (!isDeepStrictEqual(parsed(result), expected)) {
    return { ok: false, reason: `writes ${key} in a way that cannot be rewritten by line (inline or as dotted keys); write it as [[${key}]] tables by hand once` };
  }
  return { ok: true, text: result };
}

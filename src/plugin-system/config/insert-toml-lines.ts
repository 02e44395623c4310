import { scanTomlLines, type ScannedTomlLine } from './scan-toml-lines.js';

/** Lines to add to a TOML document, anchored to a table that has a `[header]` line. */
export interface TomlInsertion {
  /** Key path of the anchor table, e.g. `['plugin']` or `['plugin', 'limits']`. */
  table: readonly string[];
  /**
   * `table-end`: after the anchor table's last key/value line (before any blank or comment
   * lines that lead up to the next header). `file-end`: at the end of the file; used for
   * new sub-tables, which may only follow a parent that has a header of its own.
   */
  at: 'table-end' | 'file-end';
  /** The lines, without terminators. */
  lines: readonly string[];
}

export interface InsertTomlLinesResult {
  /** The new text: the old text with the placed lines spliced in, every old byte kept. */
  text: string;
  /** The insertions that were placed; the others named a table with no header line. */
  placed: TomlInsertion[];
}

function sameTable(line: ScannedTomlLine, table: readonly string[]): boolean {
  return (
    line.kind === 'header' &&
    line.arrayTable === false &&
    line.table!.length === table.length &&
    line.table!.every((key, index) => key === table[index])
  );
}

/** Offset at which the anchor table's lines go, or undefined when the table has no header. */
function insertionOffset(text: string, lines: readonly ScannedTomlLine[], insertion: TomlInsertion): number | undefined {
  const header = lines.findIndex((line) => sameTable(line, insertion.table));
  if (header === -1) return undefined;
  if (insertion.at === 'file-end') return text.length;
  let last = header;
  for (let index = header + 1; index < lines.length && lines[index]!.kind !== 'header'; index += 1) {
    if (lines[index]!.kind === 'content') last = index;
  }
  return lines[last]!.end;
}

/**
 * Splices lines into a TOML document without reformatting anything: the file's own line
 * ending (`\r\n` or `\n`, taken from its first line) is used for the new lines, and a last
 * line without a terminator gets one before anything is added after it. Insertions whose
 * anchor table has no `[header]` line (an inline or dotted-key table) are left out, because
 * lines cannot be added to those by line.
 */
export function insertTomlLines(text: string, insertions: readonly TomlInsertion[]): InsertTomlLinesResult {
  const eol = /\r?\n/.exec(text)?.[0] ?? '\n';
  const lines = scanTomlLines(text);
  const placed: { offset: number; insertion: TomlInsertion }[] = [];
  for (const insertion of insertions) {
    const offset = insertionOffset(text, lines, insertion);
    if (offset !== undefined) placed.push({ offset, insertion });
  }
  // At the same offset (the last table ends the file) a table's own fields come before new
  // sub-tables; otherwise the sort is stable and keeps the order given.
  const rank = (entry: { offset: number; insertion: TomlInsertion }) => entry.offset * 2 + (entry.insertion.at === 'file-end' ? 1 : 0);
  placed.sort((left, right) => rank(left) - rank(right));
  let out = '';
  let position = 0;
  for (const { offset, insertion } of placed) {
    out += text.slice(position, offset);
    position = offset;
    if (out !== '' && !out.endsWith('\n')) out += eol;
    out += insertion.lines.map((line) => `${line}${eol}`).join('');
  }
  out += text.slice(position);
  return { text: out, placed: placed.map((entry) => entry.insertion) };
}

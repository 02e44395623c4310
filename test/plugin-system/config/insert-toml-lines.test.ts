import { describe, expect, it } from 'vitest';
import { insertTomlLines } from '../../../src/plugin-system/config/insert-toml-lines.js';
import { scanTomlLines } from '../../../src/plugin-system/config/scan-toml-lines.js';

describe('scanTomlLines', () => {
  it('tells headers, key/value lines (with their continuation lines) and trivia apart', () => {
    const text = [
      '# top',
      '[plugin] # comment',
      "a = 'x[y]' # ]",
      'b = """',
      '[not.a.header]',
      '""""',
      "c = '''",
      '[neither]',
      "'''",
      'd = [',
      '  [1],',
      '  { e = "]" },',
      ']',
      '',
      '[plugin."odd.key"]',
      '[[plugin.items]]',
    ].join('\r\n');
    const lines = scanTomlLines(text);
    expect(lines.map((line) => line.kind)).toEqual([
      'trivia',
      'header',
      'content',
      'content',
      'content',
      'content',
      'content',
      'content',
      'content',
      'content',
      'content',
      'content',
      'content',
      'trivia',
      'header',
      'header',
    ]);
    expect(lines[1]).toMatchObject({ table: ['plugin'], arrayTable: false });
    expect(lines[14]).toMatchObject({ table: ['plugin', 'odd.key'], arrayTable: false });
    expect(lines[15]).toMatchObject({ table: ['plugin', 'items'], arrayTable: true });
    expect(lines[15]!.terminated).toBe(false);
    expect(lines.map((line) => text.slice(line.start, line.end)).join('')).toBe(text);
  });
});

describe('insertTomlLines', () => {
  it('adds after the last key of a table and at the end of the file, keeping every old byte', () => {
    const text = '[a]\nx = 1\n\n# about b\n[b]\ny = 2\n';
    const { text: out, placed } = insertTomlLines(text, [
      { table: ['a'], at: 'table-end', lines: ['z = 3'] },
      { table: ['b'], at: 'file-end', lines: ['', '[b.c]', 'w = 4'] },
      { table: ['b'], at: 'table-end', lines: ['v = 5'] },
    ]);
    expect(out).toBe('[a]\nx = 1\nz = 3\n\n# about b\n[b]\ny = 2\nv = 5\n\n[b.c]\nw = 4\n');
    expect(placed).toHaveLength(3);
  });

  it('adds to an empty table right after its header', () => {
    expect(insertTomlLines('[a]\n\n[b]\n', [{ table: ['a'], at: 'table-end', lines: ['x = 1'] }]).text).toBe('[a]\nx = 1\n\n[b]\n');
  });

  it('leaves out insertions into tables without a header line of their own', () => {
    const result = insertTomlLines('a = { x = 1 }\n[b.c]\n', [
      { table: ['a'], at: 'table-end', lines: ['y = 2'] },
      { table: ['b'], at: 'file-end', lines: ['[b.d]'] },
    ]);
    expect(result).toEqual({ text: 'a = { x = 1 }\n[b.c]\n', placed: [] });
  });
});

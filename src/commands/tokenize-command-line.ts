/** One word of a command line: its text with quotes and escapes resolved, and where it began. */
export interface CommandToken {
  readonly value: string;
  /** Index in the line of the token's first character (its opening quote, if quoted). */
  readonly start: number;
  /** True when any part of it was quoted or escaped: `"--x"` is a word, not an option. */
  readonly quoted: boolean;
}

export type TokenizeResult = { readonly ok: true; readonly tokens: CommandToken[] } | { readonly ok: false; readonly reason: string };

const WHITESPACE = /\s/;

/**
 * Splits a command line into words like a shell does, simplified: whitespace separates,
 * "double" and 'single' quotes group (a quote inside a word joins it: `a"b c"` is `ab c`),
 * a backslash makes the next character literal (outside quotes and inside double quotes;
 * single quotes keep everything as written). An unclosed quote is an error.
 */
export function tokenizeCommandLine(line: string): TokenizeResult {
  const tokens: CommandToken[] = [];
  let index = 0;
  while (index < line.length) {
    while (index < line.length && WHITESPACE.test(line[index]!)) index += 1;
    if (index >= line.length) break;
    const start = index;
    let value = '';
    let quoted = false;
    while (index < line.length && !WHITESPACE.test(line[index]!)) {
      const char = line[index]!;
      if (char === '\\' && index + 1 < line.length) {
        value += line[index + 1];
        quoted = true;
        index += 2;
      } else if (char === '"' || char === "'") {
        const close = readQuoted(line, index);
        if (close === undefined) return { ok: false, reason: `引号没有闭合（第 ${index + 1} 个字符的 ${char}）` };
        value += close.value;
        quoted = true;
        index = close.end;
      } else {
        value += char;
        index += 1;
      }
    }
    tokens.push({ value, start, quoted });
  }
  return { ok: true, tokens };
}

function readQuoted(line: string, open: number): { value: string; end: number } | undefined {
  const quote = line[open]!;
  let value = '';
  let index = open + 1;
  while (index < line.length) {
    const char = line[index]!;
    if (char === quote) return { value, end: index + 1 };
    if (quote === '"' && char === '\\' && index + 1 < line.length) {
      value += line[index + 1];
      index += 2;
      continue;
    }
    value += char;
    index += 1;
  }
  return undefined;
}

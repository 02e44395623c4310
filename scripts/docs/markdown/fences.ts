/** A fenced code block of a Markdown page. */
export interface Fence {
  /** The language word of the info string (`ts`, `toml`, `sh` ...), lowercase; '' when none. */
  lang: string;
  /** The `[title]` of the info string (VitePress's code title), e.g. `plugins/greeter/plugin.ts`. */
  title?: string;
  /** The code, with the fence's own indentation taken off. */
  code: string;
  /** The 1-based line of the opening fence. */
  line: number;
  /** The `<!-- docs:no-compile: reason -->` reason given on the line before the fence. */
  noCompile?: string;
}

const OPENING = /^(\s*)(`{3,}|~{3,})(.*)$/;
const NO_COMPILE = /^\s*<!--\s*docs:no-compile:\s*(.+?)\s*-->\s*$/;

/** Every fenced code block of a page, in order. */
export function fencesOf(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const fences: Fence[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const opening = OPENING.exec(lines[index]!);
    if (opening === null) continue;
    const [, indent, marker, info] = opening as unknown as [string, string, string, string];
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const line = lines[end]!;
      if (line.trim().startsWith(marker) && line.trim().replace(/[`~]/g, '') === '') break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    const fence: Fence = { lang: langOf(info), code: `${body.join('\n')}\n`, line: index + 1 };
    const title = /\[([^\]]+)\]/.exec(info)?.[1];
    if (title !== undefined) fence.title = title.trim();
    const reason = index > 0 ? NO_COMPILE.exec(lines[index - 1]!)?.[1] : undefined;
    if (reason !== undefined) fence.noCompile = reason;
    fences.push(fence);
    index = end;
  }
  return fences;
}

function langOf(info: string): string {
  return (/^\s*([A-Za-z0-9_+-]+)/.exec(info)?.[1] ?? '').toLowerCase();
}

/** The page without its fenced code blocks and inline code (for finding links and headings in prose). */
export function proseOf(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const opening = OPENING.exec(line);
    if (fence === undefined && opening !== null) {
      fence = opening[2]!;
      out.push('');
    } else if (fence !== undefined) {
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = undefined;
      out.push('');
    } else {
      out.push(line.replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length)));
    }
  }
  return out.join('\n');
}

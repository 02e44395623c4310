import { proseOf } from './fences.js';

export interface PageLinkRef {
  target: string;
  line: number;
}

/** Every link of a page's prose: Markdown `[text](target)`, `<a href>`, and snippet imports are not links. */
export function linksOf(markdown: string): PageLinkRef[] {
  const links: PageLinkRef[] = [];
  for (const [index, line] of proseOf(markdown).split('\n').entries()) {
    for (const match of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1]!, line: index + 1 });
    for (const match of line.matchAll(/<a\s+[^>]*href="([^"]+)"/g)) links.push({ target: match[1]!, line: index + 1 });
  }
  return links;
}

/** Snippet imports (`<<< @/../examples/x.ts`, optionally `#region` or `{1-3}`): the file they show. */
export function snippetsOf(markdown: string): PageLinkRef[] {
  const snippets: PageLinkRef[] = [];
  for (const [index, line] of markdown.split('\n').entries()) {
    const match = /^\s*<<<\s+(\S+?)(?:#[\w-]+)?(?:\s*\{[^}]*\})?(?:\s*\[[^\]]*\])?\s*$/.exec(line);
    if (match !== null) snippets.push({ target: match[1]!, line: index + 1 });
  }
  return snippets;
}

import { proseOf } from './fences.js';

// VitePress's own slugify (vitepress/dist/node: the heading anchor plugin's default), so an
// anchor we check is the anchor the site renders.
const CONTROL = /[\u0000-\u001f]/g;
const SPECIAL = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g;
const COMBINING = /[\u0300-\u036F]/g;

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(COMBINING, '')
    .replace(CONTROL, '')
    .replace(SPECIAL, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/** The text a heading renders as: inline code, emphasis, links and tags reduced to their text. */
function headingText(source: string): string {
  return source
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*|_)(.+?)\1/g, '$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1')
    .trim();
}

/** Every anchor a page defines: its headings (explicit `{#id}` or slugged, duplicates numbered as VitePress does) and `<a id="...">`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  const raw = markdown.split('\n');
  const prose = proseOf(markdown).split('\n');
  for (const [index, line] of prose.entries()) {
    const heading = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    // Headings may contain inline code, blanked out in `prose`: read the original line.
    const source = /^ {0,3}#{1,6}\s+(.*?)\s*$/.exec(raw[index]!)![1]!;
    const explicit = /\s*\{#([^}\s]+)\}\s*$/.exec(source);
    if (explicit !== null) {
      anchors.add(explicit[1]!);
      continue;
    }
    const slug = slugify(headingText(source));
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
  }
  for (const match of markdown.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

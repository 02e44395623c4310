import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../repo-root.js';

export const DOCS_ROOT = join(repoRoot, 'docs');

/** A Markdown page of the site: its path under docs/ and its text. */
export interface DocPage {
  /** Relative to docs/, e.g. `en/guide/models.md`. */
  path: string;
  text: string;
}

/** Every .md file under docs/ (not .vitepress/), sorted. */
export function readDocPages(): DocPage[] {
  const pages: DocPage[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'public') continue;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) pages.push({ path: relative(DOCS_ROOT, full), text: readFileSync(full, 'utf8') });
    }
  };
  walk(DOCS_ROOT);
  return pages.sort((a, b) => a.path.localeCompare(b.path));
}

/** Pages written by people: everything but the generated references. Their samples are checked. */
export function isWrittenPage(path: string): boolean {
  return !path.startsWith('reference/');
}

export function docsFile(path: string): string {
  return `docs/${path}`;
}

// The site's navigation (docs/.vitepress/pages.ts) and its pages agree: every page listed
// exists in each language it should, and no written guide page is left out of it.
import { ALL_GROUPS, allPageFiles, pageFile } from '../../../docs/.vitepress/pages.js';
import { docsFile, type DocPage } from './doc-pages.js';
import type { Problem } from './problem.js';

export function checkNavigation(pages: DocPage[]): Problem[] {
  const present = new Set(pages.map((page) => page.path));
  const problems: Problem[] = [];
  for (const group of ALL_GROUPS) {
    for (const link of group.pages) {
      for (const locale of group.localized ? (['zh', 'en'] as const) : (['en'] as const)) {
        const file = pageFile(group, link, locale);
        if (!present.has(file)) problems.push({ file: 'docs/.vitepress/pages.ts', message: `the navigation lists ${link.title[locale]} (${locale}) at ${docsFile(file)}, which does not exist` });
      }
    }
  }
  const listed = new Set(allPageFiles());
  for (const page of pages) {
    if (page.path.startsWith('reference/api/')) continue;
    if (!listed.has(page.path)) problems.push({ file: docsFile(page.path), message: 'this page is not in the navigation (docs/.vitepress/pages.ts), so no reader finds it' });
  }
  return problems;
}

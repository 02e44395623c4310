// The README is the front door: its guides table is the one docs:gen makes from the page
// list, and every relative link in it leads to a file of the repository.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { linksOf } from '../markdown/links.js';
import { README_GUIDES_START, withReadmeGuides } from '../reference/readme-guides.js';
import { repoRoot } from '../repo-root.js';
import type { Problem } from './problem.js';

export function checkReadme(readme = readFileSync(join(repoRoot, 'README.md'), 'utf8')): Problem[] {
  const problems: Problem[] = [];
  const expected = withReadmeGuides(readme);
  if (expected === undefined) problems.push({ file: 'README.md', message: `the guides table is missing: put ${README_GUIDES_START} and <!-- /guides --> where it goes, then run npm run docs:gen` });
  else if (expected !== readme) problems.push({ file: 'README.md', message: 'the guides table is out of date with docs/.vitepress/pages.ts; run npm run docs:gen' });
  for (const link of linksOf(readme)) {
    if (/^[a-z]+:/i.test(link.target) || link.target.startsWith('#')) continue;
    const path = link.target.split('#')[0]!;
    if (!existsSync(join(repoRoot, path))) problems.push({ file: 'README.md', line: link.line, message: `the link ${link.target} leads to no file of the repository` });
  }
  return problems;
}

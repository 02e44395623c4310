// Both troubleshooting guides have a section for every error code, at the code's anchor
// (`## MG_CONFIG_FILE {#mg-config-file}`), and none for a code that does not exist.
import { ERROR_CODES } from '../../../src/kernel/errors/error-codes.js';
import { anchorsOf } from '../markdown/anchors.js';
import { errorAnchor } from '../reference/errors-reference.js';
import { docsFile, type DocPage } from './doc-pages.js';
import type { Problem } from './problem.js';

export const TROUBLESHOOTING_PAGES = ['guide/troubleshooting.md', 'en/guide/troubleshooting.md'];

export function checkTroubleshooting(pages: DocPage[]): Problem[] {
  const problems: Problem[] = [];
  const expected = new Map(Object.keys(ERROR_CODES).map((code) => [errorAnchor(code), code]));
  for (const path of TROUBLESHOOTING_PAGES) {
    const page = pages.find((candidate) => candidate.path === path);
    if (page === undefined) continue; // the navigation check reports a missing page
    const anchors = anchorsOf(page.text);
    for (const [anchor, code] of expected) {
      if (!anchors.has(anchor)) problems.push({ file: docsFile(path), message: `no section for ${code}: add \`## ${code} {#${anchor}}\` saying what it means and what to do` });
    }
    for (const anchor of anchors) {
      if (anchor.startsWith('mg-') && !expected.has(anchor)) problems.push({ file: docsFile(path), message: `the section #${anchor} is for no error code in ERROR_CODES (src/kernel/errors/error-codes.ts)` });
    }
  }
  return problems;
}

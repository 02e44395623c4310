// The committed reference pages are what the code generates now; a stale one names the
// command that refreshes it.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { listFiles, type ReferenceFiles } from '../reference/render-references.js';
import { DOCS_ROOT } from './doc-pages.js';
import type { Problem } from './problem.js';

const REFRESH = 'run `npm run docs:gen` and commit docs/reference/';

export function checkReferences(expected: ReferenceFiles): Problem[] {
  const root = join(DOCS_ROOT, 'reference');
  const problems: Problem[] = [];
  for (const [path, text] of expected) {
    const file = join(root, path);
    const where = `docs/reference/${path}`;
    if (!existsSync(file)) problems.push({ file: where, message: `missing: the code generates it; ${REFRESH}` });
    else if (readFileSync(file, 'utf8') !== text) problems.push({ file: where, line: firstDifference(readFileSync(file, 'utf8'), text), message: `out of date with the code; ${REFRESH}` });
  }
  if (existsSync(root)) {
    for (const file of listFiles(root)) {
      const path = relative(root, file);
      if (!expected.has(path)) problems.push({ file: `docs/reference/${path}`, message: `the code no longer generates this page; ${REFRESH}` });
    }
  }
  return problems;
}

function firstDifference(actual: string, expected: string): number {
  const a = actual.split('\n');
  const b = expected.split('\n');
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) if (a[index] !== b[index]) return index + 1;
  return 1;
}

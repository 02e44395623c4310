// Every link of every page leads somewhere: a page of the site (and, when it names one, an
// anchor of that page), or a file of the repository. Web links are not fetched (no network
// here); they only have to be well formed.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { anchorsOf } from '../markdown/anchors.js';
import { linksOf, snippetsOf } from '../markdown/links.js';
import { repoRoot } from '../repo-root.js';
import { DOCS_ROOT, docsFile, type DocPage } from './doc-pages.js';
import type { Problem } from './problem.js';

export function checkLinks(pages: DocPage[]): Problem[] {
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (page: DocPage): Set<string> => {
    let found = anchorCache.get(page.path);
    if (found === undefined) anchorCache.set(page.path, (found = anchorsOf(page.text)));
    return found;
  };
  const problems: Problem[] = [];
  for (const page of pages) {
    // TypeDoc writes the API pages' links from its own model; only their targets' files are checked.
    const generatedApi = page.path.startsWith('reference/api/');
    for (const link of linksOf(page.text)) {
      const at = { file: docsFile(page.path), line: link.line };
      const problem = checkLink(page, link.target, byPath, anchors, generatedApi);
      if (problem !== undefined) problems.push({ ...at, message: problem });
    }
    for (const snippet of snippetsOf(page.text)) {
      const file = snippet.target.startsWith('@/') ? join(DOCS_ROOT, snippet.target.slice(2)) : join(DOCS_ROOT, dirname(page.path), snippet.target);
      if (!existsSync(file) || !statSync(file).isFile()) problems.push({ file: docsFile(page.path), line: snippet.line, message: `the snippet ${snippet.target} shows ${normalize(file).replace(`${repoRoot}/`, '')}, which does not exist` });
    }
  }
  return problems;
}

function checkLink(page: DocPage, target: string, byPath: Map<string, DocPage>, anchors: (page: DocPage) => Set<string>, generatedApi: boolean): string | undefined {
  if (/^(https?:|mailto:)/.test(target)) return /^https?:\/\/[^/\s]+\.[^/\s]+/.test(target) || target.startsWith('mailto:') ? undefined : `the web link ${target} is not a full URL`;
  if (/^[a-z]+:/i.test(target)) return `the link ${target} uses a scheme the site cannot serve`;
  const [pathPart, anchor] = splitAnchor(target);
  let linked: DocPage | undefined;
  if (pathPart === '') {
    linked = page;
  } else {
    const base = pathPart.startsWith('/') ? pathPart.slice(1) : join(dirname(page.path), pathPart);
    const resolved = resolvePage(normalize(base), byPath);
    if (resolved === undefined) {
      // A repository file linked from a page (`../../examples/x.ts`) is fine when it exists in the repo.
      const repoFile = pathPart.startsWith('/') ? undefined : join(DOCS_ROOT, dirname(page.path), pathPart);
      if (repoFile !== undefined && existsSync(repoFile)) return undefined;
      return `the link ${target} leads to no page (looked for docs/${normalize(base).replace(/\.(md|html)$/, '')}.md)`;
    }
    linked = resolved;
  }
  if (anchor === undefined || anchor === '' || generatedApi) return undefined;
  const decoded = decodeURIComponent(anchor);
  if (anchors(linked).has(decoded)) return undefined;
  return `the link ${target} names the anchor #${decoded}, which docs/${linked.path} does not have`;
}

function splitAnchor(target: string): [string, string | undefined] {
  const hash = target.indexOf('#');
  return hash < 0 ? [target, undefined] : [target.slice(0, hash), target.slice(hash + 1)];
}

/** `guide/models`, `guide/models.md`, `guide/models.html`, `reference/api/` → the page. */
function resolvePage(path: string, byPath: Map<string, DocPage>): DocPage | undefined {
  const clean = path.replace(/\.(md|html)$/, '').replace(/\/$/, '/index');
  return byPath.get(`${clean}.md`) ?? byPath.get(`${clean}/index.md`) ?? (clean === '' || clean === '.' ? byPath.get('index.md') : undefined);
}

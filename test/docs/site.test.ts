// [issue 19.3] The documentation site builds, every page of its navigation is in the built
// site in each of its languages, and every code sample of the guides compiles (the sample
// tests pass), so a reader never lands on a missing page or copies code that does not work.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { ALL_GROUPS, pageUrl } from '../../docs/.vitepress/pages.js';

const root = new URL('../..', import.meta.url).pathname;
const outDir = mkdtempSync(join(tmpdir(), 'moonglass-docs-site-'));
let server: Server | undefined;
afterAll(() => {
  server?.close();
  rmSync(outDir, { recursive: true, force: true });
});

/** Serves the built site as a static host does, with clean URLs (`/guide/models` is `guide/models.html`). */
async function serveSite(): Promise<string> {
  server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const candidates = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}.html`];
    const file = candidates.map((candidate) => join(outDir, candidate)).find((candidate) => candidate.startsWith(outDir) && existsSync(candidate) && !candidate.endsWith('/'));
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'application/octet-stream';
    response.writeHead(200, { 'content-type': `${type}; charset=utf-8` }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
}

describe('[issue 19] the documentation site', () => {
  const browser = useBrowser();

  it('[issue 19.3] builds, and every page its navigation lists is a built page in each of its languages', () => {
    const vitepress = join(root, 'node_modules/vitepress/bin/vitepress.js');
    const build = spawnSync(process.execPath, [vitepress, 'build', 'docs', '--outDir', outDir], { cwd: root, encoding: 'utf8' });
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    let pages = 0;
    for (const group of ALL_GROUPS) {
      for (const link of group.pages) {
        for (const locale of group.localized ? (['zh', 'en'] as const) : (['en'] as const)) {
          const url = pageUrl(group, link, locale);
          const file = join(outDir, url.endsWith('/') ? `${url}index.html` : `${url}.html`);
          expect(existsSync(file), `${url} (${link.title[locale]}) is in the built site`).toBe(true);
          const html = readFileSync(file, 'utf8');
          expect(html, `${url} has its own heading, not the 404 page`).toMatch(/<h1[ >]/);
          pages += 1;
        }
      }
    }
    expect(pages).toBeGreaterThanOrEqual(41); // 16 guides in two languages, 5 references, 4 contributor pages
    // The local search index is built per language; the Chinese one knows words, not only
    // whole space-separated runs (pairs of characters are indexed: "插件" finds 插件配置).
    const chunks = readdirSync(join(outDir, 'assets/chunks'));
    const zhIndex = chunks.find((name) => name.startsWith('@localSearchIndexroot.'));
    const enIndex = chunks.find((name) => name.startsWith('@localSearchIndexen.'));
    expect(zhIndex, chunks.join(' ')).toBeDefined();
    expect(enIndex).toBeDefined();
    const zh = readFileSync(join(outDir, 'assets/chunks', zhIndex!), 'utf8');
    // A term is stored as ["<term>",{...}]; "件配" exists only as a pair inside "插件配置".
    for (const term of ['插件', '件配', '配置']) expect(zh, term).toContain(`["${term}",{`);
  }, 600_000);

  it('[issue 19] in a browser, the built site searches in Chinese and in English and opens the page found', async () => {
    expect(existsSync(join(outDir, 'index.html')), 'the site was built by the test above').toBe(true);
    const base = await serveSite();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    for (const [path, query, expected] of [
      ['/guide/getting-started', '插件配置', /插件配置/],
      ['/en/guide/getting-started', 'plugin config', /Plugin config/],
    ] as const) {
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      await page.click('.DocSearch-Button');
      // The search box is an async component and its index a lazy chunk: keys typed before
      // its input mounts are lost on a loaded machine, so fill the input once it is there.
      const input = page.locator('.VPLocalSearchBox input');
      await input.waitFor({ timeout: 15_000 });
      await input.fill(query);
      // Results come once the lazy index has loaded: wait for one that matches, in the first five.
      const found = page.locator('.VPLocalSearchBox .result', { hasText: expected }).first();
      await found.waitFor({ timeout: 15_000 });
      const rank = (await page.locator('.VPLocalSearchBox .result').allInnerTexts()).findIndex((text) => expected.test(text));
      expect(rank).toBeGreaterThanOrEqual(0);
      expect(rank).toBeLessThan(5);
      await found.click();
      await page.waitForURL((url) => url.pathname !== path, { timeout: 15_000 });
      expect(await page.locator('h1').first().innerText()).not.toBe('');
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('[issue 19.3] npm run docs:check passes: references current, links and anchors good, every sample compiled and every sample test passing', () => {
    // The whole check as `npm run docs:check` runs it (this is how it runs in CI: .ci/run runs npm test).
    const check = spawnSync(process.execPath, ['--conditions=source', '--import', './src/register-typescript.mjs', 'scripts/docs/check.ts'], { cwd: root, encoding: 'utf8' });
    expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0);
    expect(check.stdout).toContain('docs:check: all good');
    const counts = /(\d+) TypeScript samples compiled \((\d+) of them tests, run\), (\d+) config and manifest samples validated/.exec(check.stdout);
    expect(counts, check.stdout).not.toBeNull();
    const [compiled, tests, validated] = counts!.slice(1).map(Number) as [number, number, number];
    expect(compiled).toBeGreaterThanOrEqual(40);
    expect(tests).toBeGreaterThanOrEqual(6);
    expect(validated).toBeGreaterThanOrEqual(40);
    // Samples left uncompiled are listed with their reasons; they stay rare.
    expect(check.stdout.match(/not compiled: /g)?.length ?? 0).toBeLessThanOrEqual(5);
  }, 600_000);
});

// [issue 19.3] The documentation site builds, every page of its navigation is in the built
// site in each of its languages, and every code sample of the guides compiles (the sample
// tests pass), so a reader never lands on a missing page or copies code that does not work.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_GROUPS, pageUrl } from '../../docs/.vitepress/pages.js';

const root = new URL('../..', import.meta.url).pathname;
const outDir = mkdtempSync(join(tmpdir(), 'moonglass-docs-site-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('[issue 19] the documentation site', () => {
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

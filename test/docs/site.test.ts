// [issue 19.3] The documentation site builds, every page of its navigation is in the built
// site in each of its languages, and every code sample of the guides compiles (the sample
// tests pass), so a reader never lands on a missing page or copies code that does not work.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_GROUPS, pageUrl } from '../../docs/.vitepress/pages.js';
import { readDocPages } from '../../scripts/docs/check/doc-pages.js';
import { checkSamples } from '../../scripts/docs/check/samples.js';

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
    expect(pages).toBeGreaterThanOrEqual(45);
    // The local search index is built with the site.
    expect(existsSync(join(outDir, 'assets/chunks')) || existsSync(join(outDir, 'assets'))).toBe(true);
  }, 600_000);

  it('[issue 19.3] compiles every code sample of the guides, validates every config sample, and passes every sample test', async () => {
    const report = await checkSamples(readDocPages());
    expect(report.problems.map((problem) => `${problem.file}:${problem.line ?? ''} ${problem.message}`)).toEqual([]);
    expect(report.compiled.length).toBeGreaterThanOrEqual(20);
    expect(report.tests.length).toBeGreaterThanOrEqual(3);
    expect(report.skipped.length, report.skipped.map((skip) => `${skip.page}:${skip.line} ${skip.reason}`).join('\n')).toBeLessThanOrEqual(5);
    const vitest = join(root, 'node_modules/vitest/vitest.mjs');
    const files = report.tests.map((test) => relative(root, test.file));
    const run = spawnSync(process.execPath, [vitest, 'run', '--config', 'scripts/docs/vitest.samples.config.ts', ...files], { cwd: root, encoding: 'utf8' });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`Test Files\\s+${files.length} passed`));
  }, 300_000);
});

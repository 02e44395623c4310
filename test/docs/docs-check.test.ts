// [issue 19.3] npm run docs:check fails on a broken link, a reference page out of date with the
// code, or a code sample that does not compile; each problem names the file and the line.
import { describe, expect, it } from 'vitest';
import { checkLinks } from '../../scripts/docs/check/links.js';
import { checkNavigation } from '../../scripts/docs/check/navigation.js';
import { checkReferences } from '../../scripts/docs/check/references.js';
import { checkSamples } from '../../scripts/docs/check/samples.js';
import { checkTroubleshooting } from '../../scripts/docs/check/troubleshooting.js';
import { readDocPages, type DocPage } from '../../scripts/docs/check/doc-pages.js';
import { anchorsOf, slugify } from '../../scripts/docs/markdown/anchors.js';
import { fencesOf } from '../../scripts/docs/markdown/fences.js';
import { ERROR_CODES } from '../../src/kernel/errors/error-codes.js';
import { COMPOSE_YAML, DOCKERFILE } from '../../src/scaffold/templates/docker.js';

const page = (path: string, text: string): DocPage => ({ path, text });

describe('[issue 19.3] docs:check', () => {
  it('slugs headings as VitePress does, numbers repeated ones, and takes explicit {#id} anchors', () => {
    expect(slugify('连接 QQ（NapCat）')).toBe('连接-qq-napcat');
    expect(slugify('The `bot.toml` file')).toBe('the-bot-toml-file');
    const anchors = anchorsOf('# Title\n\n## Setup\n\n## Setup\n\n## 手动部署 {#manual}\n\n<a id="row-1"></a>\n\n```md\n## not a heading\n```\n');
    expect([...anchors]).toEqual(['title', 'setup', 'setup-1', 'manual', 'row-1']);
  });

  it('reports a link to a page that does not exist and an anchor the page lacks, with the line, and accepts good ones', () => {
    const pages = [
      page('guide/a.md', '# A\n\n[ok](./b.md#install) [ok too](/guide/b) [web](https://example.com/x)\n[gone](./missing.md)\n[no anchor](./b.md#nope)\n\n`[not a link](./missing.md)`\n'),
      page('guide/b.md', '# B\n\n## Install\n'),
    ];
    const problems = checkLinks(pages);
    expect(problems.map((problem) => `${problem.file}:${problem.line}`)).toEqual(['docs/guide/a.md:4', 'docs/guide/a.md:5']);
    expect(problems[0]!.message).toContain('leads to no page');
    expect(problems[1]!.message).toContain('#nope');
  });

  it('reports a snippet import of a file that does not exist', () => {
    const problems = checkLinks([page('guide/a.md', '# A\n\n<<< @/../examples/first-handler.ts\n\n<<< @/../examples/nothing-here.ts\n')]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'docs/guide/a.md', line: 5 });
  });

  it('reports a reference page out of date with the code, a missing one, and one the code no longer makes', () => {
    const committed = readDocPages().filter((doc) => doc.path.startsWith('reference/'));
    const expected = new Map(committed.map((doc) => [doc.path.slice('reference/'.length), doc.text]));
    expect(checkReferences(expected)).toEqual([]);
    const changed = new Map(expected);
    changed.set('config.md', expected.get('config.md')!.replace('`chat.message_buffer_seconds`', '`chat.message_buffer_secs`'));
    changed.set('new-page.md', '# New\n');
    changed.delete('cli.md');
    const problems = checkReferences(changed);
    expect(problems.map((problem) => problem.file).sort()).toEqual(['docs/reference/cli.md', 'docs/reference/config.md', 'docs/reference/new-page.md']);
    expect(problems.find((problem) => problem.file.endsWith('config.md'))!.message).toContain('npm run docs:gen');
  });

  it('compiles TypeScript samples and reports a type error at its line in the page', async () => {
    const text = [
      '# Samples', // 1
      '', // 2
      '```ts [plugins/x/helper.ts]', // 3
      'export const greeting: string = "hi";', // 4
      '```', // 5
      '', // 6
      '```ts [plugins/x/plugin.ts]', // 7
      "import { greeting } from './helper.js';", // 8
      'const count: number = greeting;', // 9
      'export { count };', // 10
      '```', // 11
      '',
      '<!-- docs:no-compile: shows only a signature -->',
      '```ts',
      'function broken(: void',
      '```',
    ].join('\n');
    const report = await checkSamples([page('guide/samples-test.md', text)]);
    expect(report.compiled).toHaveLength(2);
    expect(report.skipped).toEqual([{ page: 'guide/samples-test.md', line: 14, reason: 'shows only a signature' }]);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ file: 'docs/guide/samples-test.md', line: 9 });
    expect(report.problems[0]!.message).toMatch(/TS2322.*not assignable to type 'number'/);
  });

  it('validates config samples the way moonglass check does, naming the key', async () => {
    const text = ['# Config', '', '```toml [config/bot.toml]', '[chat]', 'message_buffer_seconds = -1', '```', '', '```toml [config/bot.toml]', '[chat]', 'message_buffer_seconds = 2', '```', ''].join('\n');
    const report = await checkSamples([page('guide/config-test.md', text)]);
    expect(report.validated).toBe(2);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ file: 'docs/guide/config-test.md', line: 3 });
    expect(report.problems[0]!.message).toContain('chat.message_buffer_seconds');
  });

  it('validates manifest samples with the host’s manifest reader', async () => {
    const text = ['# M', '', '```json [plugins/x/_manifest.json]', '{ "manifest_version": 1, "id": "x", "plugin_type": "chatter", "name": "X", "version": "1.0.0", "description": "An example." }', '```', ''].join('\n');
    const report = await checkSamples([page('guide/manifest-test.md', text)]);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]!.message).toContain("plugin_type");
  });

  it('holds a shown Dockerfile or compose.yaml to what moonglass init writes today', async () => {
    const shown = ['# D', '', '```dockerfile [Dockerfile]', DOCKERFILE.trimEnd(), '```', '', '```yaml [compose.yaml]', COMPOSE_YAML.replace('restart: unless-stopped', 'restart: always').trimEnd(), '```', ''].join('\n');
    const report = await checkSamples([page('guide/deploy-test.md', shown)]);
    expect(report.problems).toEqual([{ file: 'docs/guide/deploy-test.md', line: shown.split('\n').indexOf('```yaml [compose.yaml]') + 1, message: expect.stringContaining('[compose.yaml] is not the compose.yaml that moonglass init writes') }]);
  });

  it('finds fences inside list items and reads their titles', () => {
    const fences = fencesOf('1. Write it:\n\n   ```ts [a.ts]\n   export const a = 1;\n   ```\n');
    expect(fences).toEqual([{ lang: 'ts', title: 'a.ts', code: 'export const a = 1;\n', line: 3 }]);
  });

  it('requires a troubleshooting section for every error code in both languages, and none for an unknown code', () => {
    const codes = Object.keys(ERROR_CODES);
    const all = codes.map((code) => `## ${code} {#${code.toLowerCase().replaceAll('_', '-')}}`).join('\n\n');
    const zh = page('guide/troubleshooting.md', `# 排查\n\n${all}\n\n## MG_NOT_A_CODE {#mg-not-a-code}\n`);
    const en = page('en/guide/troubleshooting.md', `# Troubleshooting\n\n${all.replace(/^## MG_STORAGE .*$/m, '')}\n`);
    const problems = checkTroubleshooting([zh, en]);
    expect(problems).toEqual([
      { file: 'docs/guide/troubleshooting.md', message: expect.stringContaining('the section #mg-not-a-code is for no error code') },
      { file: 'docs/en/guide/troubleshooting.md', message: expect.stringContaining('no section for MG_STORAGE: add `## MG_STORAGE {#mg-storage}`') },
    ]);
  });

  it('reports a page left out of the navigation and a listed page that does not exist', () => {
    const real = readDocPages();
    const before = new Set(checkNavigation(real).map((problem) => problem.message));
    const pages = real.filter((doc) => doc.path !== 'en/guide/models.md');
    pages.push(page('guide/orphan.md', '# Orphan\n'));
    const problems = checkNavigation(pages).filter((problem) => !before.has(problem.message));
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringContaining('docs/en/guide/models.md, which does not exist'),
      'this page is not in the navigation (docs/.vitepress/pages.ts), so no reader finds it',
    ]);
  });
});

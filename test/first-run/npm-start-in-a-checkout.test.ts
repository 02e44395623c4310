import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandOutcome, freshCheckout, runCommand } from './fresh-checkout.js';

// Issue 15, items 10 and 13: what a new user does first, in a fresh copy of this checkout:
// `echo 你好 | npm start`, then `npm test`. The start writes config.toml files beside the
// plugins (src/plugins/built_in/*, plugins/*); tests must not trip over them.

/** The plugin folders of a checkout that hold a config.toml, relative to it. */
function pluginFoldersWithConfig(checkout: string): string[] {
  const folders: string[] = [];
  for (const root of ['src/plugins/built_in', 'plugins']) {
    for (const name of readdirSync(join(checkout, root))) {
      if (existsSync(join(checkout, root, name, 'config.toml'))) folders.push(`${root}/${name}`);
    }
  }
  return folders;
}

/** Every test file of the checkout, relative to it. */
function testFiles(checkout: string, folder = 'test'): string[] {
  return readdirSync(join(checkout, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(checkout, path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('a fresh checkout after its first `npm start`', () => {
  let checkout: { folder: string; remove(): void };
  let start: CommandOutcome;
  let generated: string[];

  beforeAll(async () => {
    checkout = freshCheckout();
    expect(pluginFoldersWithConfig(checkout.folder)).toEqual([]); // nothing generated came along
    start = await runCommand('npm', ['start'], { cwd: checkout.folder, input: '你好\n', timeoutMs: 90_000 });
    generated = pluginFoldersWithConfig(checkout.folder);
  }, 120_000);

  afterAll(() => checkout?.remove());

  it('[issue 15] piped, `npm start` prints only the conversation on stdout: no npm banner, no log line', () => {
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout.split('\n').filter((line) => line !== '')).toEqual([expect.stringMatching(/^月璃> .*你好/)]);
    // The log is on stderr.
    expect(start.stderr).toMatch(/"msg":"ready in \d+ ms/);
  });

  it('[issue 15] the tests that read the checkout\'s plugin folders pass beside the config.toml files the start wrote', async () => {
    expect(generated).toEqual(expect.arrayContaining(['src/plugins/built_in/hello-yueli', 'src/plugins/built_in/neo_default_chatter', 'plugins/dice']));
    // The tests that look at those folders and at config.toml files (this file aside).
    const affected = testFiles(checkout.folder).filter((file) => {
      if (file.startsWith('test/first-run/')) return false;
      const text = readFileSync(join(checkout.folder, file), 'utf8');
      return text.includes('config.toml') && (text.includes('src/plugins/built_in') || generated.some((folder) => text.includes(folder)));
    });
    expect(affected).toEqual(expect.arrayContaining(['test/plugins/hello-yueli.test.ts', 'test/plugins/forward-message/media.test.ts']));
    const vitest = join(checkout.folder, 'node_modules/vitest/vitest.mjs');
    const run = await runCommand(process.execPath, [vitest, 'run', ...affected], { cwd: checkout.folder, timeoutMs: 240_000 });
    expect(run.code, `${relative(checkout.folder, vitest)} run ${affected.join(' ')}\n${run.stdout}\n${run.stderr}`).toBe(0);
    // Still there afterwards: the tests neither needed them gone nor removed them.
    expect(pluginFoldersWithConfig(checkout.folder)).toEqual(generated);
  }, 270_000);
});

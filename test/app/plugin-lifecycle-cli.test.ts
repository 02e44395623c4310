import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';

// Issue 13, item 6: a plugin cannot hang the host, through the real CLI (`npm start`).

const fixture = (name: string) => join(projectRoot, 'test/fixtures/plugin-roots/third-party', name);
const START = ['start', '--config-dir', 'config', '--data-dir', 'data'];

describe('a plugin whose onLoad never finishes', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();

  /** A bot folder whose plugins/ holds the fixtures, each under the folder name given. */
  function project(plugins: Record<string, string>, features?: string): string {
    const cwd = tempDir();
    for (const [folder, name] of Object.entries(plugins)) cpSync(fixture(name), join(cwd, 'plugins', folder), { recursive: true });
    if (features !== undefined) {
      mkdirSync(join(cwd, 'config'), { recursive: true });
      writeFileSync(join(cwd, 'config', 'features.toml'), features);
    }
    return cwd;
  }

  it('[cli] with lifecycle_timeout_s = 1 is reported failed ("onLoad timed out after 1 s"), and the host starts with the others', async () => {
    const cwd = project(
      { 'good-echo': 'good-echo', 'onload-hangs': 'onload-hangs', 'zz-after': 'good-second' },
      '[plugins]\nlifecycle_timeout_s = 1\n\n[admin]\nport = 0\n',
    );
    const bot = run(START, { cwd });
    await bot.waitForLog(/^ready in/);
    const messages = bot.logs.map((record) => String(record['msg']));
    expect(messages).toContain('plugin fixture.onload-hangs failed (load): onLoad timed out after 1 s');
    const loaded = messages.find((message) => message.startsWith('plugins loaded'));
    expect(loaded).toContain('fixture.good-echo');
    expect(loaded).toContain('fixture.good-second');
    expect(loaded).not.toContain('fixture.onload-hangs');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('[cli] SIGTERM while it is pending (timeout 30 s) ends the process promptly with exit code 0, lock released', async () => {
    const cwd = project({ 'onload-hangs': 'onload-hangs' });
    const bot = run(START, { cwd });
    await bot.waitForLog(/^onload-hangs: onLoad started/);
    const sentAt = Date.now();
    bot.child.kill('SIGTERM');
    const exited = await Promise.race([bot.exited, new Promise((resolve) => setTimeout(() => resolve('still running after 12 s'), 12_000))]);
    expect(exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - sentAt).toBeLessThan(12_000);
    expect(bot.logs.map((record) => record['msg'])).toContain('stopping during start-up');
    expect(existsSync(join(cwd, 'data', 'moonglass.lock'))).toBe(false);
  }, 60_000);
});

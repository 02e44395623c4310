import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BotProcess, useBotProcesses } from '../support/bot-process.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// Issue 16, item 5: `moonglass start --watch` through the real CLI (as `npm start` runs it,
// under tsx), with the console adapter reading a pipe. The watched plugin says its version
// when it loads and when it observes a message, and the version lives in a helper file its
// entry imports, so a reload must run the helper anew, not only the entry.

const START = ['start', '--config-dir', 'config', '--data-dir', 'data', '--watch'];

function manifest(id: string): string {
  return JSON.stringify({
    manifest_version: 1,
    id,
    plugin_type: 'tool',
    name: id,
    version: '1.0.0',
    description: `watched test plugin ${id}`,
    host_application: { min_version: '0.1.0', max_version: '0.1.9' },
  });
}

const ENTRY = `import * as z from 'zod';
import { PluginConfig, ToolPlugin } from 'moonglass';
import { VERSION } from './lib/version.js';

export class WatchedPlugin extends ToolPlugin {
  static override configModel = PluginConfig.extend({ greeting: z.string().default('hi') });
  override async onLoad(): Promise<void> { this.ctx.logger.info(\`watched onLoad: version \${VERSION}\`); }
  override async onUnload(): Promise<void> { this.ctx.logger.info(\`watched onUnload: version \${VERSION}\`); }
  override observeInbound(): void { this.ctx.logger.info(\`watched observed a message: version \${VERSION}\`); }
}
`;

const versionSource = (version: string) => `export const VERSION: string = '${version}';\n`;

/** A bot project whose plugins/watched/ holds the plugin, at version `v1`. */
function project(cwd: string): { helper: string; entry: string } {
  const folder = join(cwd, 'plugins', 'watched');
  mkdirSync(join(folder, 'lib'), { recursive: true });
  writeFileSync(join(folder, '_manifest.json'), manifest('test.watched'));
  writeFileSync(join(folder, 'plugin.ts'), ENTRY);
  const helper = join(folder, 'lib', 'version.ts');
  writeFileSync(helper, versionSource('v1'));
  return { helper, entry: join(folder, 'plugin.ts') };
}

const messages = (bot: BotProcess) => bot.logs.map((record) => String(record['msg']));

/** Waits for a log line matching `pattern` after the first `from` lines. */
async function logAfter(bot: BotProcess, from: number, pattern: RegExp): Promise<string> {
  const found = () => messages(bot).slice(from).find((message) => pattern.test(message));
  await until(() => found() !== undefined, { what: `a log line ${pattern}`, timeoutMs: 30_000 }).catch((error: Error) => {
    throw new Error(`${error.message}; the log after line ${from}:\n${messages(bot).slice(from).join('\n')}\nstderr:\n${bot.stderr.join('\n')}`);
  });
  return found()!;
}

/** Sends a message through the console and waits for the plugin to say which version observed it. */
async function observedVersion(bot: BotProcess, text: string): Promise<string> {
  const from = messages(bot).length;
  bot.child.stdin!.write(`${text}\n`);
  return (await logAfter(bot, from, /^watched observed a message: version /)).replace('watched observed a message: version ', '');
}

describe('moonglass start --watch', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();

  it('[issue 16.5] a saved helper file reloads the plugin with the new code; a syntax error is logged with the file and keeps the previous version; the fix reloads', async () => {
    const cwd = tempDir();
    const { helper } = project(cwd);
    const bot = run(START, { cwd });
    await bot.waitForLog(/^ready in/);
    expect(messages(bot)).toContain('watching plugins/ for changes');
    expect(messages(bot)).toContain('watched onLoad: version v1');
    expect(await observedVersion(bot, 'one')).toBe('v1');

    let from = messages(bot).length;
    writeFileSync(helper, versionSource('v2'));
    expect(await logAfter(bot, from, /^reloaded test\.watched/)).toMatch(/^reloaded test\.watched \(plugins\/watched\) in \d+ ms$/);
    expect(messages(bot).slice(from)).toEqual(expect.arrayContaining(['watched onUnload: version v1', 'watched onLoad: version v2']));
    // One save, one reload.
    expect(messages(bot).slice(from).filter((message) => message.startsWith('watched onLoad'))).toEqual(['watched onLoad: version v2']);
    expect(await observedVersion(bot, 'two')).toBe('v2');

    from = messages(bot).length;
    writeFileSync(helper, `export const VERSION: string = 'v3'\nexport const = ;\n`);
    const refused = await logAfter(bot, from, /did not reload/);
    expect(refused).toContain('test.watched (plugins/watched) did not reload, the previous version keeps running: entry step:');
    expect(refused).toContain(`at ${helper}:2`);
    expect(messages(bot).slice(from).some((message) => message.startsWith('watched onUnload'))).toBe(false);
    expect(await observedVersion(bot, 'three')).toBe('v2');

    from = messages(bot).length;
    writeFileSync(helper, versionSource('v3'));
    await logAfter(bot, from, /^reloaded test\.watched/);
    expect(messages(bot).slice(from)).toContain('watched onLoad: version v3');
    expect(await observedVersion(bot, 'four')).toBe('v3');

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('[issue 16.5] a file saved by writing a copy and renaming it over the original (vim, sed -i, safe write) reloads, and so does every later save of it', async () => {
    const cwd = tempDir();
    const { helper } = project(cwd);
    const bot = run(START, { cwd });
    await bot.waitForLog(/^ready in/);

    let from = messages(bot).length;
    writeFileSync(`${helper}.new`, versionSource('v2'));
    renameSync(`${helper}.new`, helper);
    await logAfter(bot, from, /^reloaded test\.watched/);
    expect(await observedVersion(bot, 'one')).toBe('v2');

    // The renamed-over file is a new inode: a watcher that followed the old one misses these.
    from = messages(bot).length;
    writeFileSync(helper, versionSource('v3'));
    await logAfter(bot, from, /^reloaded test\.watched/);
    expect(await observedVersion(bot, 'two')).toBe('v3');

    from = messages(bot).length;
    writeFileSync(`${helper}.new`, versionSource('v4'));
    renameSync(`${helper}.new`, helper);
    await logAfter(bot, from, /^reloaded test\.watched/);
    expect(await observedVersion(bot, 'three')).toBe('v4');

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('[issue 16.5] an entry whose import throws, that exports no plugin, whose config cannot be read, or whose onLoad throws keeps the previous version, each logged with why', async () => {
    const cwd = tempDir();
    const { entry } = project(cwd);
    const bot = run(START, { cwd });
    await bot.waitForLog(/^ready in/);

    const breakages: [string, string, RegExp][] = [
      ['an import that throws', `throw new Error('broken at import');\n${ENTRY}`, /entry step: .*broken at import/],
      ['no ToolPlugin export', `export const nothing = 1;\n`, /entry step: .*no exported class extends ToolPlugin.*exports found: nothing/],
      ['a config field with no default and no value in config.toml', ENTRY.replace("z.string().default('hi')", "z.string().default('hi'), token: z.string().min(1)"), /config step: .*token/],
      ['an onLoad that throws', ENTRY.replace('override async onLoad(): Promise<void> {', "override async onLoad(): Promise<void> { throw new Error('broken onLoad');"), /load step: Error: broken onLoad \(at .*plugins\/watched\/plugin\.ts:\d+:\d+\)$/],
    ];
    for (const [what, source, why] of breakages) {
      const from = messages(bot).length;
      writeFileSync(entry, source);
      const refused = await logAfter(bot, from, /did not reload/);
        expect(refused, what).toMatch(why);
      expect(await observedVersion(bot, what), what).toBe('v1');
    }
    const from = messages(bot).length;
    writeFileSync(entry, ENTRY);
    await logAfter(bot, from, /^reloaded test\.watched/);
    expect(await observedVersion(bot, 'fixed')).toBe('v1');
  }, 120_000);

  it('[issue 16.5] a plugin folder created while watching loads, and a deleted one unloads', async () => {
    const cwd = tempDir();
    project(cwd);
    const bot = run(START, { cwd });
    await bot.waitForLog(/^ready in/);

    let from = messages(bot).length;
    const folder = join(cwd, 'plugins', 'newcomer');
    mkdirSync(join(folder, 'lib'), { recursive: true });
    writeFileSync(join(folder, 'lib', 'version.ts'), versionSource('new'));
    writeFileSync(join(folder, 'plugin.ts'), ENTRY);
    writeFileSync(join(folder, '_manifest.json'), manifest('test.newcomer'));
    expect(await logAfter(bot, from, /^loaded new plugin test\.newcomer/)).toMatch(/^loaded new plugin test\.newcomer \(plugins\/newcomer\) in \d+ ms$/);
    expect(messages(bot).slice(from)).toContain('watched onLoad: version new');

    from = messages(bot).length;
    rmSync(folder, { recursive: true });
    expect(await logAfter(bot, from, /was deleted/)).toBe('plugins/newcomer was deleted: plugin test.newcomer unloaded');
    expect(messages(bot).slice(from)).toContain('watched onUnload: version new');
    expect(await observedVersion(bot, 'after')).toBe('v1');

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});

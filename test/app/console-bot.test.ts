import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { storedMessages } from '../support/stored-messages.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';

/** Copies plugin folders (relative to the repository) into `<cwd>/plugins`, leaving out a config.toml a local run wrote. */
function withPlugins(cwd: string, folders: readonly string[]): string {
  for (const folder of folders) {
    cpSync(join(projectRoot, folder), join(cwd, 'plugins', basename(folder)), { recursive: true, filter: (path) => basename(path) !== 'config.toml' });
  }
  return cwd;
}

// These run the real CLI (`src/app/main.ts`, as `npm start` does) in a child process, which
// forks the console adapter in a grandchild; messages go in through a pipe. The built-in
// plugins are the project's own, with their default settings (typing delay included).


describe('npm start with the console adapter', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();

  it('[app] answers a piped message on stdout, stores both sides, and stops cleanly when the input ends', async () => {
    const cwd = tempDir();
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd });
    bot.child.stdin!.write('你好\n');
    bot.child.stdin!.end();
    const answer = await bot.waitForStdout(/^月璃> /);
    expect(answer).toBe('月璃> （演示模型）收到：你好');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    // The chat is alone on stdout; the log (JSON, since stderr is a pipe) is on stderr.
    expect(bot.stdout.filter((line) => line !== '')).toEqual([answer]);
    const messages = bot.logs.map((record) => String(record['msg']));
    expect(messages.some((msg) => msg.startsWith('model: the offline demo model'))).toBe(true);
    expect(messages).toContain(`moonglass 0.1.0: config in ${join(cwd, 'config')}, data in ${join(cwd, 'data')}`);
    expect(messages.some((msg) => /^plugins loaded \(\d+\): .*neo_default_chatter/.test(msg))).toBe(true);
    expect(messages.some((msg) => /^ready in \d+ ms/.test(msg))).toBe(true);
    expect(messages.at(-1)).toBe('stopped');
    for (const file of ['features.toml', 'bot.toml', 'models.toml', 'adapters/console.toml']) expect(existsSync(join(cwd, 'config', file))).toBe(true);
    expect(storedMessages(join(cwd, 'data'))).toEqual([
      { direction: 'inbound', content: '你好' },
      { direction: 'outbound', content: '（演示模型）收到：你好' },
    ]);
  });

  it('[issue 20] with [platform] isolation = "thread", the console adapter reads the piped input in a thread of the host and answers on stdout', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'config'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[platform]\nadapter = "console"\nisolation = "thread"\n');
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd });
    bot.child.stdin!.write('线程\n');
    bot.child.stdin!.end();
    expect(await bot.waitForStdout(/^月璃> /)).toBe('月璃> （演示模型）收到：线程');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(bot.logs.find((record) => record['msg'] === 'the console adapter is up')).toMatchObject({ isolation: 'thread', pid: bot.child.pid });
    expect(storedMessages(join(cwd, 'data'))).toEqual([
      { direction: 'inbound', content: '线程' },
      { direction: 'outbound', content: '（演示模型）收到：线程' },
    ]);
  });

  it('[issue 20] by default the console adapter has a process of its own (a terminal cannot be a thread\'s), reads the piped input and answers on stdout', async () => {
    const cwd = tempDir();
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd });
    bot.child.stdin!.write('进程\n');
    bot.child.stdin!.end();
    expect(await bot.waitForStdout(/^月璃> /)).toBe('月璃> （演示模型）收到：进程');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    const up = bot.logs.find((record) => record['msg'] === 'the console adapter is up');
    expect(up).toMatchObject({ isolation: 'process', pid: expect.any(Number) });
    expect(up?.['pid']).not.toBe(bot.child.pid);
  });

  it('[app] SIGTERM stops gracefully: the adapter and host shut down in order, exit code 0, a message that arrived is kept', async () => {
    const cwd = tempDir();
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data', '--log-level', 'debug'], { cwd });
    await bot.waitForLog(/^ready in/);
    bot.child.stdin!.write('在吗\n');
    // Stored before the chatter saw it; the reply (seconds of typing) is cut short by the stop.
    await bot.waitForLog(/^stored an inbound message$/);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    const messages = bot.logs.map((record) => String(record['msg']));
    expect(messages).toEqual(expect.arrayContaining(['stopping', 'the console adapter stopped', 'stopped']));
    expect(messages.indexOf('the console adapter stopped')).toBeLessThan(messages.indexOf('stopped'));
    expect(storedMessages(join(cwd, 'data'))).toContainEqual({ direction: 'inbound', content: '在吗' });
  });

  it('[issue 15] shows each tool call and its result as a short line on stdout, and lists once the tools hidden by their tier', async () => {
    const cwd = withPlugins(tempDir(), ['plugins/dice', 'test/fixtures/plugin-roots/third-party/reversible-tool']);
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd });
    bot.child.stdin!.write('!roll_dice {"count":2}\n');
    const rolled = await bot.waitForStdout(/^· roll_dice/);
    expect(rolled).toMatch(/^· roll_dice \{"count":2\} → 2d6: [1-6] \+ [1-6] = \d+$/);
    bot.child.stdin!.write('!roll_dice {"count":50}\n');
    bot.child.stdin!.end();
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    // The dice plugin refuses more than 10 dice: the failure is shown as such.
    expect(bot.stdout.filter((line) => line !== '')).toEqual([rolled, '· roll_dice {"count":50} ✗ 最多一次掷 10 个骰子']);
    const hidden = bot.logs.filter((record) => String(record['msg']).startsWith('reversible, not enabled'));
    expect(hidden.map((record) => record['msg'])).toEqual(['reversible, not enabled: set_reminder — enable in features.toml [tools] reversible_enabled']);
  });

  it('[app] an unknown adapter stops the start with a reason that lists the known ones (exit code 1)', async () => {
    const cwd = tempDir();
    const bot = run(['start', '--adapter', 'telegram', '--config-dir', 'config', '--data-dir', 'data'], { cwd });
    expect(await bot.exited).toEqual({ code: 1, signal: null });
    const fatal = bot.logs.find((record) => record['level'] === 60);
    expect(fatal).toMatchObject({ code: 'MG_ADAPTER' });
    expect(String(fatal?.['msg'])).toMatch(/adapter "telegram": no such adapter .*known adapters: console/);
  });
});

describe('npm start with the console adapter in a terminal', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();

  it('[app] in a terminal: a banner and a prompt, the answer printed as it is sent, Ctrl+C stops the whole bot gracefully', async () => {
    const cwd = tempDir();
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd, tty: true });
    await bot.waitForStdout(/Chatting with 月璃\. Type a message and press Enter; Ctrl\+C quits\./);
    bot.child.stdin!.write('你好\r');
    await bot.waitForStdout(/月璃> （演示模型）收到：你好/);
    // [issue 15] The greeting and the prompt come after the start-up report, not among its lines.
    const ready = bot.stdout.findIndex((line) => /ready in \d+ ms/.test(line));
    expect(ready).toBeGreaterThanOrEqual(0);
    expect(bot.stdout.findIndex((line) => line.includes('Chatting with 月璃'))).toBeGreaterThan(ready);
    expect(bot.stdout.findIndex((line) => line.includes('你> '))).toBeGreaterThan(ready);
    bot.child.stdin!.write('\x03'); // Ctrl+C: readline turns it into SIGINT for the host
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(bot.stdout.some((line) => /INFO.*stopping/.test(line))).toBe(true);
    expect(storedMessages(join(cwd, 'data'))).toEqual([
      { direction: 'inbound', content: '你好' },
      { direction: 'outbound', content: '（演示模型）收到：你好' },
    ]);
  }, 45_000); // a start, a typed reply's delay and a stop, in a pseudo-terminal on a shared machine
});

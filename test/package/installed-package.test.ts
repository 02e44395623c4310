// Issue 16, item 1: `npm pack` gives a moonglass package a bot project depends on, and
// `npx moonglass init` makes such a project. One pack, install and scaffold for the file
// (beforeAll); each test then uses the installed project as a person would.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/temp-dir.js';
import { makeInstalledBot, type InstalledBot } from './support/installed-bot.js';
import { personEnvironment, runCommand } from './support/run-command.js';
import { freePort } from '../support/free-port.js';
import { until } from '../support/until.js';

// Outside the checkout: a module the package forgot to declare must not be found in the
// checkout's node_modules by walking up.
const scratch = mkdtempSync(join(tmpdir(), 'moonglass-package-'));
const checkoutHadDist = existsSync(join(projectRoot, 'dist'));
let bot: InstalledBot;

beforeAll(async () => {
  bot = await makeInstalledBot(projectRoot, scratch, 'my-bot');
}, 240_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }), 60_000);

describe('the packed moonglass', () => {
  it('holds the compiled host, its type declarations, the built-in plugins and the bin, and nothing else', () => {
    const files = bot.packed.files;
    expect(files).toEqual(expect.arrayContaining([
      'package.json',
      'README.md',
      'bin/moonglass.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/testing.js',
      'dist/ndfc.d.ts',
      'dist/app/main.js',
      'dist/register-typescript.mjs',
      'dist/typescript.tsconfig.json',
      'dist/plugins/built_in/neo_default_chatter/_manifest.json',
      'dist/plugins/built_in/neo_default_chatter/plugin.js',
      'dist/adapters/console/_manifest.json',
      'dist/admin/ui/index.html',
    ]));
    const outsideTheRuntime = files.filter((file) => !/^(dist\/|bin\/moonglass\.js$|package\.json$|README\.md$)/.test(file));
    expect(outsideTheRuntime).toEqual([]);
    const noise = files.filter((file) => /\.map$|\.tsbuildinfo$|\.test\.|(^|\/)(test|bench|fixtures)\/|config\.toml$|(?<!\.d)\.ts$/.test(file));
    expect(noise).toEqual([]);
  });

  it('[issue 20] holds JavaScript in ASCII only, so V8 keeps each module source at one byte a character (one 中 doubles a chunk)', () => {
    // dist/admin/ui/ is the web console's, sent to a browser as it is.
    const javascript = bot.packed.files.filter((file) => /\.(js|mjs)$/.test(file) && !file.startsWith('dist/admin/ui/'));
    expect(javascript.length).toBeGreaterThan(10);
    const withOtherCharacters = javascript.filter((file) => /[^\x00-\x7f]/.test(readFileSync(join(bot.project, 'node_modules', 'moonglass', file), 'utf8')));
    expect(withOtherCharacters).toEqual([]);
  });

  it('[issue 20] imports no CommonJS package: those are required (an import makes Node scan their source, ~10 MiB at start)', () => {
    const installed = join(bot.project, 'node_modules', 'moonglass');
    const imported = new Set<string>();
    for (const file of bot.packed.files.filter((name) => /\.(js|mjs)$/.test(name) && !name.startsWith('dist/admin/ui/'))) {
      const source = readFileSync(join(installed, file), 'utf8');
      for (const match of source.matchAll(/^import(?:[^'"]*?from)?\s*["']([^"'./][^"']*)["']/gm)) imported.add(match[1]!);
    }
    const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
    const commonJs = [...imported].filter((specifier) => !specifier.startsWith('node:') && packageOf(specifier) !== 'moonglass').filter((specifier) => {
      const manifest = JSON.parse(readFileSync(join(bot.project, 'node_modules', packageOf(specifier), 'package.json'), 'utf8')) as { type?: string };
      return manifest.type !== 'module';
    });
    expect(imported.size).toBeGreaterThan(3);
    expect(commonJs).toEqual([]);
  });

  it('is packed from a copy: the checkout gets no dist/ and no tarball', () => {
    expect(existsSync(join(projectRoot, 'dist'))).toBe(checkoutHadDist);
    expect(existsSync(join(projectRoot, 'moonglass-0.1.0.tgz'))).toBe(false);
  });
});

describe('npx moonglass init my-bot, from the installed package', () => {
  it('creates the bot project: package.json on moonglass, config/, an example plugin and its test, tsconfig, tests, .gitignore, README, Dockerfile, compose.yaml', () => {
    for (const file of ['package.json', 'README.md', 'tsconfig.json', 'vitest.config.ts', '.gitignore', 'config/README.md', 'plugins/dice/_manifest.json', 'plugins/dice/plugin.ts', 'plugins/dice/dice.test.ts', 'Dockerfile', 'compose.yaml']) {
      expect(existsSync(join(bot.project, file)), file).toBe(true);
    }
    const manifest = JSON.parse(readFileSync(join(bot.project, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    expect(manifest['name']).toBe('my-bot');
    expect(manifest['dependencies']).toEqual({ moonglass: `file:${bot.packed.tarball}` });
    expect(manifest['devDependencies']?.['vitest']).toBe('4.1.12');
    expect(manifest['scripts']?.['start']).toBe('moonglass start');
    expect(readFileSync(join(bot.project, 'compose.yaml'), 'utf8')).toContain('napcat');
    expect(bot.initOutput).toContain(`created  ${bot.project}`);
    // The installed host is JavaScript: nothing of it is compiled at start.
    expect(existsSync(join(bot.project, 'node_modules/moonglass/src'))).toBe(false);
  });

  it('npm start chats with the demo model: 你好 piped in, the answer on stdout', async () => {
    const start = await runCommand('npm', ['start'], { cwd: bot.project, input: '你好\n', timeoutMs: 60_000 });
    expect(start.stdout, start.stderr).toContain('（演示模型）收到：你好');
    expect(start.code).toBe(0);
    // The example plugin is TypeScript, loaded with no build step, `moonglass` resolving to the installed dist/.
    expect(start.stderr).toMatch(/"id":"example\.dice".*"msg":"工具插件已加载"/);
  }, 90_000);

  it("[issue 19] the Dockerfile's CMD runs the host itself: started as written, it stops cleanly on the SIGTERM of `docker stop`", async () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(bot.project, 'Dockerfile'), 'utf8'))?.[1];
    const [command, ...args] = JSON.parse(cmd ?? '[]') as string[];
    expect(command).toBe('node'); // not npx or npm start: those stop themselves and leave the bot running
    const port = await freePort();
    mkdirSync(join(bot.project, 'config/adapters'), { recursive: true });
    writeFileSync(join(bot.project, 'config/adapters/onebot_v11.toml'), `[reverse]\nport = ${port}\n`);
    const child = spawn(command!, args, { cwd: bot.project, env: personEnvironment({}), stdio: ['ignore', 'pipe', 'pipe'] });
    // With the OneBot adapter the log goes to stdout (only the console adapter keeps stdout for the chat).
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    await until(() => /ready in \d+ ms/.test(output), { what: 'the bot ready', timeoutMs: 60_000 });
    child.kill('SIGTERM');
    expect(await exited, output).toEqual({ code: 0, signal: null });
    expect(output).toMatch(/"reason":"SIGTERM".*stopping/);
  }, 90_000);

  it('moonglass plugins lists the example plugin as loaded from plugins/dice', async () => {
    const plugins = await runCommand('npx', ['--no-install', 'moonglass', 'plugins'], { cwd: bot.project, timeoutMs: 60_000 });
    expect(plugins.stdout, plugins.stderr).toMatch(/^loaded\s+example\.dice 1\.0\.0 \(plugins\/dice\) 1 component\(s\)$/m);
    expect(plugins.stdout).toMatch(/^loaded\s+neo_default_chatter .*\(built-in\)/m);
  }, 90_000);

  it('npm test finds and passes the test beside the example plugin', async () => {
    const test = await runCommand('npm', ['test', '--loglevel=warn'], { cwd: bot.project, env: { NO_COLOR: '1' }, timeoutMs: 120_000 });
    expect(test.stdout + test.stderr).toMatch(/plugins\/dice\/dice\.test\.ts/);
    expect(test.stdout + test.stderr).toMatch(/Tests\s+\S*\s*1 passed/);
    expect(test.code).toBe(0);
  }, 150_000);

  it('npm run typecheck passes: the plugin gets its types from the installed package', async () => {
    const check = await runCommand('npm', ['run', 'typecheck', '--loglevel=warn'], { cwd: bot.project, timeoutMs: 120_000 });
    expect(check.stdout + check.stderr).not.toMatch(/error TS/);
    expect(check.code).toBe(0);
  }, 150_000);

  it('refuses a folder that exists and is not empty, naming it, and writes nothing into it', async () => {
    const taken = join(bot.installFolder, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'notes.txt'), 'mine\n');
    const init = await runCommand('npx', ['--no-install', 'moonglass', 'init', 'taken'], { cwd: bot.installFolder });
    expect(init.code).toBe(1);
    expect(init.stderr).toContain(`${taken} exists and is not empty`);
    expect(existsSync(join(taken, 'package.json'))).toBe(false);
  }, 60_000);

  it('refuses an invalid project name with the reason', async () => {
    const upper = await runCommand('npx', ['--no-install', 'moonglass', 'init', 'My Bot'], { cwd: bot.installFolder });
    expect(upper.code).toBe(1);
    expect(upper.stderr).toContain('"My Bot" cannot name a bot project: npm package names are lower case');
    const itself = await runCommand('npx', ['--no-install', 'moonglass', 'init', 'moonglass'], { cwd: bot.installFolder });
    expect(itself.code).toBe(1);
    expect(itself.stderr).toContain('cannot have that name itself');
    const slash = await runCommand('npx', ['--no-install', 'moonglass', 'init', 'bots/one'], { cwd: bot.installFolder });
    expect(slash.stderr).toContain('no spaces, slashes or scopes');
    expect(existsSync(join(bot.installFolder, 'My Bot'))).toBe(false);
    expect(existsSync(join(bot.installFolder, 'bots'))).toBe(false);
  }, 60_000);
});

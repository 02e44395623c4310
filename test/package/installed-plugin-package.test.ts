// Issue 16, item 2, in a bot project that runs the compiled, installed moonglass (not the
// checkout): a plugin package made by `moonglass plugin new`, packed and `npm install`ed from
// its tarball into node_modules. The host must never write inside the package's folder: the
// plugin's settings live in config/plugins/<id>.toml, the owner's to edit.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { projectRoot } from '../support/temp-dir.js';
import { changedPaths, snapshotTree } from './support/file-tree.js';
import { type InstalledMoonglass, installMoonglass, npmStart, scaffoldProject, setAdminPort } from './support/installed-projects.js';
import { installPluginTarball, makeReadOnly, makeWritable } from './support/plugin-package-install.js';
import { runCommand } from './support/run-command.js';

const scratch = mkdtempSync(join(tmpdir(), 'moonglass-plugin-package-'));
const PACKAGE = 'moonglass-plugin-greet';
let installed: InstalledMoonglass;
let project: string;
let folder: string;
let settingsFile: string;

/** The line the console prints for the model's call of `tool`: `· greet {...} → result`. */
const toolLine = (stdout: string, tool: string) => stdout.split('\n').find((line) => line.startsWith(`· ${tool} `));

beforeAll(async () => {
  installed = await installMoonglass(projectRoot, scratch);
  project = await scaffoldProject(installed, 'bot');
  setAdminPort(project, await freePort());
  // The author's side: `moonglass plugin new` (plugin id = the package name), packed; the bot owner installs the tarball.
  const created = await runCommand('npx', ['--no-install', 'moonglass', 'plugin', 'new', PACKAGE], { cwd: installed.installFolder });
  if (created.code !== 0) throw new Error(`moonglass plugin new failed: ${created.stderr}`);
  await installPluginTarball(project, projectRoot, join(installed.installFolder, PACKAGE), join(scratch, 'tarballs'));
  folder = join(project, 'node_modules', PACKAGE);
  settingsFile = join(project, 'config', 'plugins', `${PACKAGE}.toml`);
}, 240_000);

afterAll(() => {
  if (folder !== undefined) makeWritable(folder);
  rmSync(scratch, { recursive: true, force: true });
}, 60_000);

describe('a plugin package in node_modules of a bot project on the installed moonglass', () => {
  it('[issue 16] its settings are created at config/plugins/<id>.toml with the config model\'s defaults, an edit there changes the plugin at the next start, and start and check never write inside the package folder', async () => {
    expect(existsSync(join(folder, 'plugin.js'))).toBe(true);
    const before = snapshotTree(folder);

    const first = await npmStart(project, ['!greet {"name":"Ann"}']);
    expect(toolLine(first.stdout, 'greet'), first.stdout + first.stderr).toBe('· greet {"name":"Ann"} → Hello, Ann!');
    const settings = readFileSync(settingsFile, 'utf8');
    expect(settings).toMatch(/^greeting = "Hello"$/m);
    expect(settings).toMatch(/^enabled = true$/m);

    writeFileSync(settingsFile, settings.replace('greeting = "Hello"', 'greeting = "Howdy"'));
    const second = await npmStart(project, ['!greet {"name":"Ann"}']);
    expect(toolLine(second.stdout, 'greet'), second.stdout + second.stderr).toBe('· greet {"name":"Ann"} → Howdy, Ann!');
    const check = await runCommand('npx', ['--no-install', 'moonglass', 'check'], { cwd: project, timeoutMs: 60_000 });
    expect(check.stdout, check.stderr).toMatch(/^loaded\s+moonglass-plugin-greet 0\.1\.0 \(node_modules\/moonglass-plugin-greet\) 1 component\(s\)$/m);

    expect(changedPaths(before, snapshotTree(folder))).toEqual([]);
    expect(existsSync(join(folder, 'config.toml'))).toBe(false);
    // The owner's edit survives start and check: they only ever add to the file.
    expect(readFileSync(settingsFile, 'utf8')).toContain('greeting = "Howdy"');
  }, 120_000);

  it('[issue 16] made read-only (chmod -R a-w) and with its config file gone, it loads, its settings are written again at config/plugins/<id>.toml, it answers, and its folder is unchanged (also as root, where chmod stops no write)', async () => {
    makeReadOnly(folder);
    rmSync(settingsFile);
    const before = snapshotTree(folder);

    const check = await runCommand('npx', ['--no-install', 'moonglass', 'check'], { cwd: project, timeoutMs: 60_000 });
    expect(check.stdout, check.stderr).toContain(`wrote    config/plugins/${PACKAGE}.toml (the plugin's settings with their defaults, as start writes them)`);
    expect(check.stdout).toMatch(/^loaded\s+moonglass-plugin-greet 0\.1\.0 /m);
    expect(readFileSync(settingsFile, 'utf8')).toMatch(/^greeting = "Hello"$/m);

    const start = await npmStart(project, ['!greet {"name":"Bo"}']);
    expect(toolLine(start.stdout, 'greet'), start.stdout + start.stderr).toBe('· greet {"name":"Bo"} → Hello, Bo!');
    expect(changedPaths(before, snapshotTree(folder))).toEqual([]);
  }, 120_000);
});

// Issue 16, item 3: `moonglass plugin add | update | remove` through npm against a real
// registry on loopback (Verdaccio), run as the real CLI in a bot project.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
// A port free right now: nothing listens there, so a registry URL on it cannot be reached.
import { freePort } from '../support/free-port.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { type LoopbackRegistry, startLoopbackRegistry } from '../support/verdaccio.js';
import { runCommand } from './support/run-command.js';
import { shoutPackage, TINY_SHOUT, writeFiles, writeMoonglassStandIn } from '../plugin-system/support/plugin-packages.js';

/** The shout plugin package at `version`, its onLoad optionally throwing, its manifest optionally changed. */
function shoutVersion(name: string, id: string, version: string, options: { onLoadThrows?: string; manifest?: Record<string, unknown> } = {}): Record<string, string> {
  const files = shoutPackage(name, id, { version, ...options.manifest });
  const packageJson = files['package.json']!.replace('"version": "1.0.0"', `"version": "${version}"`);
  const entry =
    options.onLoadThrows === undefined
      ? files['plugin.js']!
      : files['plugin.js']!.replace('static configModel = ShoutConfig;', `static configModel = ShoutConfig;\n  async onLoad() {\n    throw new Error(${JSON.stringify(options.onLoadThrows)});\n  }`);
  return { ...files, 'package.json': packageJson, 'plugin.js': entry };
}

/** Every file and folder name under node_modules, two levels deep (scopes included), sorted. */
function nodeModulesListing(project: string): string[] {
  const root = join(project, 'node_modules');
  if (!existsSync(root)) return [];
  const names: string[] = [];
  for (const name of readdirSync(root)) {
    names.push(name);
    if (name.startsWith('@')) for (const inner of readdirSync(join(root, name))) names.push(`${name}/${inner}`);
  }
  return names.sort();
}

function versionIn(project: string, name: string): string | undefined {
  const file = join(project, 'node_modules', name, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
}

describe('moonglass plugin add, update and remove', () => {
  const run = useBotProcesses();
  const workDir = useProjectTempDir();
  let registry: LoopbackRegistry;

  beforeAll(async () => {
    registry = await startLoopbackRegistry();
  }, 60_000);
  afterAll(async () => {
    await registry?.close();
  });

  async function publish(files: Record<string, string>): Promise<void> {
    const dir = workDir();
    writeFiles(dir, files);
    await registry.publish(dir);
  }

  /** A bot project depending on a moonglass stand-in (the checkout's sources), installed; nothing else. */
  async function botProject(): Promise<string> {
    // Per project: the temporary folders go after each test.
    const host = workDir();
    writeMoonglassStandIn(host);
    const project = workDir();
    writeFiles(project, { 'package.json': `${JSON.stringify({ name: 'bot', version: '1.0.0', private: true, dependencies: { moonglass: `file:${join(host, 'node_modules/moonglass')}` } }, null, 2)}\n` });
    const install = await runCommand('npm', ['install', '--registry', registry.url, '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: project, timeoutMs: 120_000 });
    expect(install, install.stderr).toMatchObject({ code: 0 });
    return project;
  }

  function plugin(args: string[], project: string) {
    return run(['plugin', ...args, '--registry', registry.url], { cwd: project });
  }

  beforeAll(async () => {
    await publish(TINY_SHOUT);
    await publish(shoutVersion('moonglass-plugin-shout', 'demo.shout', '1.0.0'));
    await publish(shoutVersion('moonglass-plugin-future', 'demo.future', '1.0.0', { manifest: { host_application: { min_version: '9.0.0', max_version: '9.9.0' } } }));
    await publish(shoutVersion('moonglass-plugin-broken', 'demo.broken', '1.0.0', { onLoadThrows: 'no API key configured' }));
    await publish({ ...TINY_SHOUT, 'package.json': TINY_SHOUT['package.json']!.replace('"tiny-shout"', '"not-a-plugin"') });
  }, 120_000);

  it('[issue 16] plugin add reads the candidate, installs it with its own npm dependency, checks it loads, and the host then runs it', async () => {
    const project = await botProject();
    const add = plugin(['add', 'moonglass-plugin-shout'], project);
    expect(await add.exited, add.stderr.join('\n')).toEqual({ code: 0, signal: null });
    expect(add.stdout.slice(0, -1)).toEqual([
      `  resolving moonglass-plugin-shout@latest in ${registry.url}`,
      '  reading the _manifest.json of moonglass-plugin-shout@1.0.0',
      '  installing moonglass-plugin-shout@1.0.0 (npm install moonglass-plugin-shout@1.0.0)',
      '  checking that moonglass-plugin-shout loads on this host',
    ]);
    expect(add.stdout.at(-1)).toMatch(/^added moonglass-plugin-shout@1\.0\.0 \(plugin demo\.shout\); it loads on this host/);
    const packageJson = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(packageJson.dependencies['moonglass-plugin-shout']).toBe('^1.0.0');
    // Its own dependency came from npm.
    expect(versionIn(project, 'tiny-shout')).toBe('1.0.0');
    const list = run(['plugin', 'list'], { cwd: project });
    expect(await list.exited).toEqual({ code: 0, signal: null });
    expect(list.stdout).toEqual(['package  moonglass-plugin-shout 1.0.0  id demo.shout  loaded']);
  }, 180_000);

  it('[issue 16] plugin add refuses a version whose host_application range excludes this host, naming the range, and installs nothing', async () => {
    const project = await botProject();
    const before = { packageJson: readFileSync(join(project, 'package.json'), 'utf8'), lock: readFileSync(join(project, 'package-lock.json'), 'utf8'), listing: nodeModulesListing(project) };
    const add = plugin(['add', 'moonglass-plugin-future@^1'], project);
    expect(await add.exited).toEqual({ code: 1, signal: null });
    expect(add.stderr).toEqual([
      'moonglass plugin add: refused moonglass-plugin-future@1.0.0: moonglass-plugin-future@1.0.0 needs moonglass 9.0.0 to 9.9.0 (host_application in its _manifest.json); this host is 0.1.0',
    ]);
    expect(readFileSync(join(project, 'package.json'), 'utf8')).toBe(before.packageJson);
    expect(readFileSync(join(project, 'package-lock.json'), 'utf8')).toBe(before.lock);
    expect(nodeModulesListing(project)).toEqual(before.listing);

    const notPlugin = plugin(['add', 'not-a-plugin'], project);
    expect(await notPlugin.exited).toEqual({ code: 1, signal: null });
    expect(notPlugin.stderr).toEqual(['moonglass plugin add: refused not-a-plugin@1.0.0: not-a-plugin@1.0.0 is not a moonglass plugin package: its package.json has no "moonglass-plugin" keyword']);
  }, 180_000);

  it('[issue 16] plugin add of a version whose onLoad throws restores package.json, the lockfile and node_modules, and says why', async () => {
    const project = await botProject();
    const before = { packageJson: readFileSync(join(project, 'package.json'), 'utf8'), lock: readFileSync(join(project, 'package-lock.json'), 'utf8'), listing: nodeModulesListing(project) };
    const add = plugin(['add', 'moonglass-plugin-broken'], project);
    expect(await add.exited).toEqual({ code: 1, signal: null });
    expect(add.stderr.at(-1)).toMatch(
      /^moonglass plugin add: moonglass-plugin-broken@1\.0\.0 was not added: moonglass-plugin-broken@1\.0\.0 \(plugin demo\.broken\) did not load: load: .*no API key configured.*; package\.json, package-lock\.json and node_modules are as they were$/,
    );
    expect(add.stdout).toContain('  restoring package.json and package-lock.json');
    expect(readFileSync(join(project, 'package.json'), 'utf8')).toBe(before.packageJson);
    expect(readFileSync(join(project, 'package-lock.json'), 'utf8')).toBe(before.lock);
    expect(nodeModulesListing(project)).toEqual(before.listing);
    // The check wrote the plugin's defaults; a refused package leaves no config behind.
    expect(existsSync(join(project, 'config', 'plugins', 'demo.broken.toml'))).toBe(false);
  }, 180_000);

  it('[issue 16] plugin update follows the range, refuses an incompatible newer version naming its range, rolls back one that does not load; remove uninstalls', async () => {
    const name = 'moonglass-plugin-counter';
    await publish(shoutVersion(name, 'demo.counter', '1.0.0'));
    const project = await botProject();
    const add = plugin(['add', name], project);
    expect(await add.exited, add.stderr.join('\n')).toEqual({ code: 0, signal: null });

    const current = plugin(['update', name], project);
    expect(await current.exited).toEqual({ code: 0, signal: null });
    expect(current.stdout.at(-1)).toBe(`${name} 1.0.0 is the newest within ^1.0.0`);

    await publish(shoutVersion(name, 'demo.counter', '1.1.0'));
    const update = plugin(['update'], project);
    expect(await update.exited, update.stderr.join('\n')).toEqual({ code: 0, signal: null });
    expect(update.stdout.at(-1)).toBe(`updated ${name} 1.0.0 → 1.1.0`);
    expect(versionIn(project, name)).toBe('1.1.0');
    expect((JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[name]).toBe('^1.0.0');

    await publish(shoutVersion(name, 'demo.counter', '1.2.0', { manifest: { host_application: { min_version: '9.0.0', max_version: '9.9.0' } } }));
    const refused = plugin(['update', name], project);
    expect(await refused.exited).toEqual({ code: 1, signal: null });
    expect(refused.stderr).toEqual([`moonglass plugin update: refused ${name}: ${name}@1.2.0 needs moonglass 9.0.0 to 9.9.0 (host_application in its _manifest.json); this host is 0.1.0`]);
    expect(versionIn(project, name)).toBe('1.1.0');

    await publish(shoutVersion(name, 'demo.counter', '1.3.0', { onLoadThrows: 'the 1.3.0 bug' }));
    const lock = readFileSync(join(project, 'package-lock.json'), 'utf8');
    const broken = plugin(['update', name], project);
    expect(await broken.exited).toEqual({ code: 1, signal: null });
    expect(broken.stderr.at(-1)).toMatch(/^moonglass plugin update: not updated: moonglass-plugin-counter@1\.3\.0 \(plugin demo\.counter\) did not load: load: .*the 1\.3\.0 bug.*; package\.json, package-lock\.json and node_modules are as they were$/);
    expect(versionIn(project, name)).toBe('1.1.0');
    expect(readFileSync(join(project, 'package-lock.json'), 'utf8')).toBe(lock);

    const remove = plugin(['remove', name], project);
    expect(await remove.exited, remove.stderr.join('\n')).toEqual({ code: 0, signal: null });
    expect(remove.stdout.at(-1)).toBe(`removed ${name}@1.1.0 (plugin demo.counter); its settings stay in config/plugins/demo.counter.toml`);
    expect(existsSync(join(project, 'node_modules', name))).toBe(false);
    expect((JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[name]).toBeUndefined();

    const again = plugin(['remove', name], project);
    expect(await again.exited).toEqual({ code: 1, signal: null });
    expect(again.stderr).toEqual([`moonglass plugin remove: ${name} is not in the dependencies of ${join(project, 'package.json')}`]);
  }, 300_000);

  it('[issue 16] plugin add: a bad name or none is refused before npm runs; an unknown package or unreachable registry is one line', async () => {
    const project = workDir();
    writeFiles(project, { 'package.json': '{ "name": "bot", "version": "1.0.0", "private": true }\n' });
    const none = run(['plugin', 'add'], { cwd: project });
    expect(await none.exited).toEqual({ code: 2, signal: null });
    expect(none.stderr[0]).toBe('moonglass plugin add takes one package name[@range], got none');
    const bad = plugin(['add', 'Bad Name'], project);
    expect(await bad.exited).toEqual({ code: 1, signal: null });
    expect(bad.stderr[0]).toMatch(/^moonglass plugin add: "Bad Name" does not name an npm package/);
    const unknown = plugin(['add', 'moonglass-plugin-nobody-made'], project);
    expect(await unknown.exited).toEqual({ code: 1, signal: null });
    expect(unknown.stderr).toEqual(['moonglass plugin add: the registry has no package named moonglass-plugin-nobody-made']);
    const noMatch = plugin(['add', 'moonglass-plugin-shout@^7'], project);
    expect(await noMatch.exited).toEqual({ code: 1, signal: null });
    expect(noMatch.stderr).toEqual(['moonglass plugin add: no published version of moonglass-plugin-shout matches ^7']);
    const url = `http://127.0.0.1:${await freePort()}/`;
    // A name no test publishes: npm's cache (shared by every test, keyed by URL, and a closed
    // registry's port may be one an earlier test's registry had) holds nothing to fall back on.
    const offline = run(['plugin', 'add', 'moonglass-plugin-never-cached', '--registry', url], { cwd: project });
    expect(await offline.exited).toEqual({ code: 1, signal: null });
    expect(offline.stderr).toHaveLength(1);
    expect(offline.stderr[0]).toMatch(/^moonglass plugin add: could not ask the registry about moonglass-plugin-never-cached@latest: .*(ECONNREFUSED|connect|request to)/);
    const elsewhere = plugin(['add', 'moonglass-plugin-shout'], workDir());
    expect(await elsewhere.exited).toEqual({ code: 1, signal: null });
    expect(elsewhere.stderr[0]).toMatch(/has no package\.json: run this inside a bot project \(moonglass init <name> creates one\)$/);
  }, 180_000);
});

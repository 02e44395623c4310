// Issue 16, item 3: the `moonglass plugin` command family, run as the real CLI.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
// A port free right now: nothing listens there, so a registry URL on it cannot be reached.
import { freePort } from '../support/free-port.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';
import { type LoopbackRegistry, startLoopbackRegistry } from '../support/verdaccio.js';
import { runCommand } from './support/run-command.js';
import { shoutPackage, TINY_SHOUT, writeFiles, writeMoonglassStandIn } from '../plugin-system/support/plugin-packages.js';

/** A publishable package folder: package.json with `fields`, and an entry file. */
function publishable(folder: string, fields: Record<string, unknown>): void {
  writeFiles(folder, { 'package.json': `${JSON.stringify({ version: '1.0.0', type: 'module', ...fields }, null, 2)}\n`, 'plugin.js': 'export {};\n' });
}

const fixture = (name: string) => join(projectRoot, 'test/fixtures/plugin-roots/third-party', name);

describe('moonglass plugin', () => {
  const run = useBotProcesses();
  const workDir = useProjectTempDir();
  const registries: LoopbackRegistry[] = [];
  afterEach(async () => {
    for (const registry of registries.splice(0)) await registry.close();
  });

  /** A bot project depending on `packages` (installed in node_modules as npm would) with `folders` in plugins/. */
  function botProject(packages: Record<string, Record<string, string>>, folders: string[]): string {
    const project = workDir();
    const dependencies = Object.fromEntries(Object.keys(packages).map((name) => [name, '^1.0.0']));
    writeFiles(project, { 'package.json': `${JSON.stringify({ name: 'bot', version: '1.0.0', private: true, dependencies: { ...dependencies, 'tiny-shout': '^1.0.0' } }, null, 2)}\n` });
    writeFiles(join(project, 'node_modules', 'tiny-shout'), TINY_SHOUT);
    for (const [name, files] of Object.entries(packages)) writeFiles(join(project, 'node_modules', name), files);
    writeMoonglassStandIn(project);
    mkdirSync(join(project, 'plugins'));
    for (const name of folders) cpSync(fixture(name), join(project, 'plugins', name), { recursive: true });
    return project;
  }

  it('[issue 16] plugin list: each plugin package with its installed version, manifest id and whether it loads, then the folder plugins marked as such', async () => {
    const loads = shoutPackage('moonglass-plugin-shout', 'demo.shout');
    // A host range that excludes this host: the package is installed but does not load.
    const tooNew = shoutPackage('moonglass-plugin-future', 'demo.future', { host_application: { min_version: '9.0.0', max_version: '9.9.0' } });
    const project = botProject({ 'moonglass-plugin-shout': loads, 'moonglass-plugin-future': { ...tooNew, 'package.json': tooNew['package.json']!.replace('"1.0.0"', '"1.2.3"') } }, ['good-echo']);
    const list = run(['plugin', 'list'], { cwd: project });
    expect(await list.exited).toEqual({ code: 1, signal: null });
    expect(list.stdout[0]).toMatch(/^package  moonglass-plugin-future 1\.2\.3  id demo\.future  skipped \(version: .*9\.0\.0/);
    expect(list.stdout[1]).toBe('package  moonglass-plugin-shout 1.0.0  id demo.shout  loaded');
    expect(list.stdout[2]).toBe('folder   plugins/good-echo  id fixture.good-echo 1.0.0  loaded');
    expect(list.stdout).toHaveLength(3);
  }, 60_000);

  it('[issue 16] plugin list in a project whose plugins all load exits 0; with none it says so', async () => {
    const project = botProject({ 'moonglass-plugin-shout': shoutPackage('moonglass-plugin-shout', 'demo.shout') }, []);
    const list = run(['plugin', 'list'], { cwd: project });
    expect(await list.exited).toEqual({ code: 0, signal: null });
    expect(list.stdout).toEqual(['package  moonglass-plugin-shout 1.0.0  id demo.shout  loaded']);

    const empty = run(['plugin', 'list'], { cwd: workDir() });
    expect(await empty.exited).toEqual({ code: 0, signal: null });
    expect(empty.stdout).toEqual(['no plugin packages in package.json and no folder plugins in plugins/']);
  }, 60_000);

  it('[issue 16] plugin with no or an unknown subcommand is a usage error (exit 2)', async () => {
    const none = run(['plugin'], { cwd: workDir() });
    expect(await none.exited).toEqual({ code: 2, signal: null });
    expect(none.stderr[0]).toBe('moonglass plugin needs a subcommand');
    const unknown = run(['plugin', 'frobnicate'], { cwd: workDir() });
    expect(await unknown.exited).toEqual({ code: 2, signal: null });
    expect(unknown.stderr[0]).toBe('unknown subcommand: plugin frobnicate');
  }, 60_000);

  it('[issue 16] plugin search lists the moonglass-plugin packages matching the words, each with its version, whether its host range includes this host, and its description', async () => {
    const registry = await startLoopbackRegistry();
    registries.push(registry);
    const dir = workDir();
    publishable(join(dir, 'a'), { name: 'moonglass-plugin-weather', description: 'weather tools', keywords: ['moonglass-plugin', 'weather'], peerDependencies: { moonglass: '^0.1.0' } });
    publishable(join(dir, 'b'), { name: 'moonglass-plugin-weather-next', version: '2.0.0', description: 'weather for moonglass 9', keywords: ['moonglass-plugin', 'weather'], moonglass: { host_application: { min_version: '9.0.0', max_version: '9.9.0' } } });
    publishable(join(dir, 'c'), { name: 'moonglass-plugin-weather-plain', description: 'says nothing of its host', keywords: ['moonglass-plugin', 'weather'] });
    // Matches the words but is no plugin: not listed.
    publishable(join(dir, 'd'), { name: 'weather-lib', description: 'a weather library', keywords: ['weather'] });
    for (const name of ['a', 'b', 'c', 'd']) await registry.publish(join(dir, name));

    const search = run(['plugin', 'search', 'weather', '--registry', registry.url], { cwd: workDir() });
    expect(await search.exited, search.stderr.join('\n')).toEqual({ code: 0, signal: null });
    expect([...search.stdout].sort()).toEqual([
      'moonglass-plugin-weather 1.0.0  compatible (peerDependencies moonglass ^0.1.0)  weather tools',
      'moonglass-plugin-weather-next 2.0.0  incompatible with moonglass 0.1.0 (host_application 9.0.0..9.9.0)  weather for moonglass 9',
      'moonglass-plugin-weather-plain 1.0.0  unknown until installed  says nothing of its host',
    ]);
  }, 120_000);

  it('[issue 16] plugin search with no words is a usage error; an unreachable registry is one line naming it, exit 1', async () => {
    const none = run(['plugin', 'search'], { cwd: workDir() });
    expect(await none.exited).toEqual({ code: 2, signal: null });
    expect(none.stderr[0]).toBe('moonglass plugin search needs the words to search for');

    const url = `http://127.0.0.1:${await freePort()}/`;
    // Words no test searches for elsewhere: npm's shared cache has no answer for them to fall back on.
    const offline = run(['plugin', 'search', 'never-cached-words', '--registry', url], { cwd: workDir() });
    expect(await offline.exited).toEqual({ code: 1, signal: null });
    expect(offline.stdout).toEqual([]);
    expect(offline.stderr).toHaveLength(1);
    expect(offline.stderr[0]).toMatch(new RegExp(`^moonglass plugin search: could not search the registry ${url.replaceAll('.', '\\.')}: .+`));
  }, 120_000);

  it('[issue 16] plugin new scaffolds a plugin package that, published and npm installed into a bot project, loads', async () => {
    const registry = await startLoopbackRegistry();
    registries.push(registry);
    const dir = workDir();
    const created = run(['plugin', 'new', 'moonglass-plugin-greet'], { cwd: dir });
    expect(await created.exited, created.stderr.join('\n')).toEqual({ code: 0, signal: null });
    expect(created.stdout[0]).toBe(`created  ${join(dir, 'moonglass-plugin-greet')} (plugin package moonglass-plugin-greet, manifest id moonglass-plugin-greet)`);
    expect(created.stdout.slice(1, 6).map((line) => line.trim())).toEqual(['package.json', '_manifest.json', 'plugin.js', 'plugin.test.js', 'README.md']);
    const packageJson = JSON.parse(readFileSync(join(dir, 'moonglass-plugin-greet', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(packageJson).toMatchObject({ name: 'moonglass-plugin-greet', version: '0.1.0', keywords: ['moonglass-plugin'], type: 'module', peerDependencies: { moonglass: '^0.1.0' } });
    await registry.publish(join(dir, 'moonglass-plugin-greet'));
    const search = run(['plugin', 'search', 'greet', '--registry', registry.url], { cwd: dir });
    expect(await search.exited, search.stderr.join('\n')).toEqual({ code: 0, signal: null });
    expect(search.stdout).toEqual(['moonglass-plugin-greet 0.1.0  compatible (host_application 0.1.0..0.1.99)  A moonglass plugin (moonglass-plugin-greet).']);

    // A bot project depending on moonglass (a stand-in for the checkout) and, from the registry, the new plugin.
    writeMoonglassStandIn(join(dir, 'host'));
    const project = join(dir, 'bot');
    writeFiles(project, { 'package.json': `${JSON.stringify({ name: 'bot', version: '1.0.0', private: true, dependencies: { moonglass: 'file:../host/node_modules/moonglass' } }, null, 2)}\n` });
    const install = await runCommand('npm', ['install', 'moonglass-plugin-greet', '--registry', registry.url, '--userconfig', registry.npmrc, '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: project, timeoutMs: 120_000 });
    expect(install, install.stderr).toMatchObject({ code: 0 });
    expect(existsSync(join(project, 'node_modules', 'moonglass-plugin-greet', 'plugin.test.js'))).toBe(false);

    const plugins = run(['plugins'], { cwd: project });
    expect(await plugins.exited, plugins.stdout.join('\n')).toEqual({ code: 0, signal: null });
    expect(plugins.stdout.find((line) => line.includes(' moonglass-plugin-greet '))).toMatch(/^loaded +moonglass-plugin-greet 0\.1\.0 \(node_modules\/moonglass-plugin-greet\) 1 component\(s\)/);
    const list = run(['plugin', 'list'], { cwd: project });
    expect(await list.exited).toEqual({ code: 0, signal: null });
    expect(list.stdout).toEqual(['package  moonglass-plugin-greet 0.1.0  id moonglass-plugin-greet  loaded']);
  }, 180_000);

  it('[issue 16] plugin new refuses an invalid npm name and a folder that is not empty, naming it', async () => {
    const dir = workDir();
    const bad = run(['plugin', 'new', 'Bad Name'], { cwd: dir });
    expect(await bad.exited).toEqual({ code: 1, signal: null });
    expect(bad.stderr[0]).toBe('moonglass plugin new: "Bad Name" cannot name a plugin package: npm package names are lower case');
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'notes.txt'), 'mine\n');
    const taken = run(['plugin', 'new', 'taken'], { cwd: dir });
    expect(await taken.exited).toEqual({ code: 1, signal: null });
    expect(taken.stderr[0]).toBe(`moonglass plugin new: ${join(dir, 'taken')} exists and is not an empty folder; choose another name or empty it first`);
    expect(readFileSync(join(dir, 'taken', 'notes.txt'), 'utf8')).toBe('mine\n');
  }, 60_000);
});

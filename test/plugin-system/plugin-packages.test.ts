// Issue 16, item 2: a plugin can be an npm package the bot project depends on. These run the
// real CLI in a project folder whose node_modules holds the packages (as npm lays them out).
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';
import { pluginManifest, shoutPackage, TINY_SHOUT, writeFiles, writeMoonglassStandIn } from './support/plugin-packages.js';

const GOOD_ECHO = join(projectRoot, 'test/fixtures/plugin-roots/third-party/good-echo');

describe('plugin packages', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();

  /** A bot project depending on `dependencies` (moonglass is always one), with an empty plugins/. */
  function project(dependencies: Record<string, string>): string {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'package.json'), `${JSON.stringify({ name: 'bot', version: '1.0.0', private: true, dependencies: { moonglass: '^0.1.0', ...dependencies } }, null, 2)}\n`);
    writeMoonglassStandIn(cwd);
    mkdirSync(join(cwd, 'plugins'));
    return cwd;
  }
  const installed = (cwd: string, name: string, files: Record<string, string>) => writeFiles(join(cwd, 'node_modules', name), files);
  const lineOf = (lines: string[], id: string) => lines.find((line) => line.includes(` ${id} `));

  it('[issue 16] a dependency that is a plugin package loads after plugins/, its own npm dependency resolving from node_modules; its config.toml goes to config/plugins/<id>.toml', async () => {
    const cwd = project({ 'moonglass-plugin-shout': '^1.0.0', 'plain-lib': '^1.0.0', 'keyword-only': '^1.0.0' });
    installed(cwd, 'moonglass-plugin-shout', shoutPackage('moonglass-plugin-shout', 'demo.shout'));
    installed(cwd, 'moonglass-plugin-shout/node_modules/tiny-shout', TINY_SHOUT);
    // A library with a _manifest.json but no keyword, and a keyword without a manifest: neither is a plugin.
    installed(cwd, 'plain-lib', { 'package.json': '{"name":"plain-lib","version":"1.0.0"}\n', '_manifest.json': pluginManifest('demo.plain') });
    installed(cwd, 'keyword-only', { 'package.json': '{"name":"keyword-only","version":"1.0.0","keywords":["moonglass-plugin"]}\n' });
    // Installed but not a dependency of the project (a dependency's dependency): not scanned.
    installed(cwd, 'stray-plugin', shoutPackage('stray-plugin', 'demo.stray'));
    writeFiles(join(cwd, 'plugins', 'good-echo'), Object.fromEntries(['_manifest.json', 'plugin.ts', 'components.ts'].map((file) => [file, readFileSync(join(GOOD_ECHO, file), 'utf8')])));

    const check = run(['check'], { cwd });
    expect(await check.exited).toEqual({ code: 0, signal: null });
    const out = check.stdout;
    expect(lineOf(out, 'demo.shout')).toMatch(/^loaded +demo\.shout 1\.0\.0 \(node_modules\/moonglass-plugin-shout\) 1 component\(s\)/);
    // Scan order: plugins/ first, then the packages.
    expect(out.findIndex((line) => line.includes(' fixture.good-echo '))).toBeLessThan(out.findIndex((line) => line.includes(' demo.shout ')));
    for (const id of ['demo.plain', 'demo.stray']) expect(lineOf(out, id)).toBeUndefined();
    expect(check.stderr.join('\n')).toContain('keyword-only');

    expect(out).toContainEqual("wrote    config/plugins/demo.shout.toml (the plugin's settings with their defaults, as start writes them)");
    expect(readFileSync(join(cwd, 'config', 'plugins', 'demo.shout.toml'), 'utf8')).toContain('suffix = "!"');
    expect(existsSync(join(cwd, 'node_modules', 'moonglass-plugin-shout', 'config.toml'))).toBe(false);
    // A folder plugin keeps its file beside its manifest, as the seed says.
    expect(out).toContainEqual("wrote    plugins/good-echo/config.toml (the plugin's settings with their defaults, as start writes them)");
    expect(existsSync(join(cwd, 'config', 'plugins', 'fixture.good-echo.toml'))).toBe(false);

    // The running bot calls the package's tool, with the settings from config/plugins/.
    writeFileSync(join(cwd, 'config', 'plugins', 'demo.shout.toml'), '[plugin]\nenabled = true\nsuffix = "?!"\n');
    const start = run(['start'], { cwd });
    start.child.stdin!.end('!shout_text {"text":"hello"}\n');
    expect(await start.exited).toMatchObject({ code: 0 });
    expect(start.stdout.join('\n')).toContain('HELLO (tiny-shout)?!');
  }, 60_000);

  it('[issue 16] the first id wins: a folder in plugins/ with the id of a package skips the package, naming both', async () => {
    const cwd = project({ 'moonglass-plugin-shout': '^1.0.0' });
    installed(cwd, 'moonglass-plugin-shout', shoutPackage('moonglass-plugin-shout', 'demo.shout'));
    installed(cwd, 'moonglass-plugin-shout/node_modules/tiny-shout', TINY_SHOUT);
    writeFiles(join(cwd, 'plugins', 'shout-copy'), shoutPackage('shout-copy', 'demo.shout'));
    writeFiles(join(cwd, 'plugins', 'shout-copy', 'node_modules', 'tiny-shout'), TINY_SHOUT);

    const plugins = run(['plugins'], { cwd });
    expect(await plugins.exited).toEqual({ code: 1, signal: null });
    const lines = plugins.stdout.filter((line) => line.includes(' demo.shout '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^loaded /);
    expect(lines[1]).toMatch(/^skipped +demo\.shout .*duplicate: id "demo\.shout" is already taken by .*plugins\/shout-copy/);
    expect(lines[1]).toContain('node_modules/moonglass-plugin-shout');
  }, 30_000);

  it('[issue 16] seed rules hold for packages: a host range that excludes this host skips one; enabled = false in config/plugins/<id>.toml switches one off before its code runs', async () => {
    const cwd = project({ 'moonglass-plugin-old': '1.0.0', 'moonglass-plugin-off': '1.0.0' });
    installed(cwd, 'moonglass-plugin-old', { ...shoutPackage('moonglass-plugin-old', 'demo.old', { host_application: { min_version: '0.0.1', max_version: '0.0.9' } }) });
    // Its entry would throw if imported: switched off must mean not imported.
    installed(cwd, 'moonglass-plugin-off', { ...shoutPackage('moonglass-plugin-off', 'demo.off'), 'plugin.js': "throw new Error('imported although switched off');\n" });
    mkdirSync(join(cwd, 'config', 'plugins'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'plugins', 'demo.off.toml'), '[plugin]\nenabled = false\n');

    const plugins = run(['plugins'], { cwd });
    expect(await plugins.exited).toEqual({ code: 1, signal: null });
    expect(lineOf(plugins.stdout, 'demo.old')).toMatch(/^skipped +demo\.old 1\.0\.0 .*version: /);
    expect(lineOf(plugins.stdout, 'demo.off')).toMatch(/^disabled +demo\.off 1\.0\.0 .*switch: /);
    expect(existsSync(join(cwd, 'node_modules', 'moonglass-plugin-off', 'config.toml'))).toBe(false);
  }, 30_000);

  it('[issue 16] built-in plugins inside node_modules (an installed moonglass) write config/plugins/<id>.toml, not into the package', async () => {
    const cwd = project({});
    // An installed moonglass ships its built-ins compiled, inside node_modules/moonglass/dist/plugins/built_in/.
    const builtIns = join(cwd, 'node_modules', 'moonglass', 'dist', 'plugins', 'built_in');
    const { 'package.json': _packageJson, ...builtIn } = shoutPackage('unused', 'builtin.shout', { host_application: undefined });
    writeFiles(join(builtIns, 'shout'), builtIn);
    installed(cwd, 'tiny-shout', TINY_SHOUT);
    const check = run(['check'], { cwd, env: { MOONGLASS_BUILT_IN_PLUGINS: builtIns } });
    expect(await check.exited).toEqual({ code: 0, signal: null });
    expect(lineOf(check.stdout, 'builtin.shout')).toMatch(/^loaded +builtin\.shout 1\.0\.0 \(built-in\) 1 component\(s\)/);
    expect(check.stdout).toContainEqual("wrote    config/plugins/builtin.shout.toml (the plugin's settings with their defaults, as start writes them)");
    expect(existsSync(join(builtIns, 'shout', 'config.toml'))).toBe(false);
  }, 30_000);

  it('[issue 16] a package may be a link (a file: dependency, npm link), but its entry may not link out of the package', async () => {
    const cwd = project({ 'moonglass-plugin-linked': 'file:../linked', 'moonglass-plugin-sneaky': '1.0.0' });
    const outside = tempDir();
    writeFiles(join(outside, 'linked'), shoutPackage('moonglass-plugin-linked', 'demo.linked'));
    writeFiles(join(outside, 'linked', 'node_modules', 'tiny-shout'), TINY_SHOUT);
    // Node resolves a linked package's imports from where it really is: an author's folder has moonglass as a dev dependency.
    writeMoonglassStandIn(join(outside, 'linked'));
    symlinkSync(join(outside, 'linked'), join(cwd, 'node_modules', 'moonglass-plugin-linked'));
    const { 'plugin.js': entry, ...rest } = shoutPackage('moonglass-plugin-sneaky', 'demo.sneaky');
    installed(cwd, 'moonglass-plugin-sneaky', rest);
    writeFileSync(join(outside, 'elsewhere.js'), entry!);
    symlinkSync(join(outside, 'elsewhere.js'), join(cwd, 'node_modules', 'moonglass-plugin-sneaky', 'plugin.js'));

    const plugins = run(['plugins'], { cwd });
    expect(await plugins.exited).toEqual({ code: 1, signal: null });
    expect(lineOf(plugins.stdout, 'demo.linked')).toMatch(/^loaded +demo\.linked /);
    expect(plugins.stdout.find((line) => line.includes('moonglass-plugin-sneaky'))).toMatch(/^skipped .*location: plugin\.js is a link to .*outside the plugin's folder/);
  }, 30_000);

  it('[issue 16] the web console reads and saves a package plugin\'s settings in config/plugins/<id>.toml, and its switch goes there too', async () => {
    const cwd = project({ 'moonglass-plugin-shout': '^1.0.0' });
    installed(cwd, 'moonglass-plugin-shout', shoutPackage('moonglass-plugin-shout', 'demo.shout'));
    installed(cwd, 'moonglass-plugin-shout/node_modules/tiny-shout', TINY_SHOUT);
    mkdirSync(join(cwd, 'config', 'plugins'), { recursive: true });
    const file = join(cwd, 'config', 'plugins', 'demo.shout.toml');
    writeFileSync(file, '[plugin]\nenabled = true\nsuffix = "?"\n');
    const start = run(['start'], { cwd });
    const announced = await start.waitForLog(/^web console: /);
    const url = new URL(String(announced['msg']).slice('web console: '.length));
    const token = url.hash.slice('#token='.length);
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${url.origin}/api${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });

    const form = (await (await api('/plugins/demo.shout/config')).json()) as { fields: { key: string; value: unknown }[] };
    expect(form.fields.find((field) => field.key === 'suffix')).toMatchObject({ value: '?' });
    const saved = await api('/plugins/demo.shout/config', { method: 'PUT', body: JSON.stringify({ values: { enabled: true, suffix: '#' } }) });
    expect(await saved.json()).toMatchObject({ saved: true, state: 'loaded' });
    expect(readFileSync(file, 'utf8')).toContain('suffix = "#"');
    const switched = await api('/plugins/demo.shout/enabled', { method: 'POST', body: JSON.stringify({ enabled: false }) });
    expect(await switched.json()).toMatchObject({ saved: true, state: 'disabled' });
    expect(readFileSync(file, 'utf8')).toMatch(/^enabled = false/m);
    expect(existsSync(join(cwd, 'node_modules', 'moonglass-plugin-shout', 'config.toml'))).toBe(false);
    start.child.stdin!.end();
    await start.exited;
  }, 30_000);
});

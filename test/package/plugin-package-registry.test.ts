// Issue 16, item 2, the real path: a plugin package and the library it depends on are
// published to a loopback registry (Verdaccio), `npm install`ed into a bot project from
// there, and the host finds and loads the plugin among the project's dependencies.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { type LoopbackRegistry, startLoopbackRegistry } from '../support/verdaccio.js';
import { shoutPackage, TINY_SHOUT, writeFiles, writeMoonglassStandIn } from '../plugin-system/support/plugin-packages.js';
import { runCommand } from './support/run-command.js';

describe('a plugin package installed from a registry', () => {
  const run = useBotProcesses();
  const workDir = useProjectTempDir();
  const registries: LoopbackRegistry[] = [];
  afterEach(async () => {
    for (const registry of registries.splice(0)) await registry.close();
  });

  it('[issue 16] npm install of a moonglass-plugin package (depending on a library from the registry) makes it a plugin of the project; its settings go to config/plugins/<id>.toml', async () => {
    const registry = await startLoopbackRegistry();
    registries.push(registry);
    const dir = workDir();
    writeFiles(join(dir, 'tiny-shout'), TINY_SHOUT);
    await registry.publish(join(dir, 'tiny-shout'));
    const plugin = shoutPackage('moonglass-plugin-shout', 'demo.shout');
    // What npm publishes is what it packs: package.json, the manifest and the entry.
    const packageJson = { ...(JSON.parse(plugin['package.json']!) as Record<string, unknown>), files: ['_manifest.json', 'plugin.js'] };
    writeFiles(join(dir, 'moonglass-plugin-shout'), { ...plugin, 'package.json': `${JSON.stringify(packageJson, null, 2)}\n` });
    await registry.publish(join(dir, 'moonglass-plugin-shout'));

    const project = join(dir, 'bot');
    writeFiles(project, { 'package.json': `${JSON.stringify({ name: 'bot', version: '1.0.0', private: true }, null, 2)}\n` });
    const install = await runCommand('npm', ['install', 'moonglass-plugin-shout', '--registry', registry.url, '--userconfig', registry.npmrc, '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: project, timeoutMs: 120_000 });
    expect(install, install.stderr).toMatchObject({ code: 0 });
    expect(existsSync(join(project, 'node_modules', 'moonglass-plugin-shout', '_manifest.json'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'tiny-shout', 'index.js'))).toBe(true);
    // The host itself: in a real project node_modules/moonglass, here a stand-in for the checkout.
    writeMoonglassStandIn(project);

    const check = run(['check'], { cwd: project });
    expect(await check.exited).toEqual({ code: 0, signal: null });
    expect(check.stdout.find((line) => line.includes(' demo.shout '))).toMatch(/^loaded +demo\.shout 1\.0\.0 .* 1 component\(s\)/);
    expect(check.stdout).toContainEqual("wrote    config/plugins/demo.shout.toml (the plugin's settings with their defaults, as start writes them)");
    expect(existsSync(join(project, 'node_modules', 'moonglass-plugin-shout', 'config.toml'))).toBe(false);

    writeFileSync(join(project, 'config', 'plugins', 'demo.shout.toml'), '[plugin]\nsuffix = "~"\n');
    const start = run(['start'], { cwd: project });
    start.child.stdin!.end('!shout_text {"text":"from the registry"}\n');
    await start.exited;
    expect(start.stdout.join('\n')).toContain('FROM THE REGISTRY (tiny-shout)~');
  }, 120_000);
});

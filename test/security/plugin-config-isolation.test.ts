import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isToolPluginClass } from '../../src/plugin-system/tool-plugin.js';
import { useTestHosts } from '../support/ndfc.js';
import { findReachable } from '../support/reachable.js';
import { projectRoot } from '../support/temp-dir.js';

const FIXTURES = join(projectRoot, 'test/fixtures/plugin-roots/isolation');
const SENTINEL = 'sk-vault-7c1f0e9a';

/** A plugin instance (from any copy of the package), not a plugin class's prototype. */
const isPlugin = (value: unknown): value is { id: string } =>
  typeof value === 'object' && value !== null && Object.hasOwn(value, 'manifest') && isToolPluginClass((value as object).constructor);

describe('a plugin cannot read another plugin’s config through the public API', () => {
  const start = useTestHosts();

  it('[security] nothing the public API hands a plugin reaches another plugin or its config values', async () => {
    const test = await start({
      plugins: [join(FIXTURES, 'vault'), join(FIXTURES, 'prober')],
      pluginConfigs: { vault: `[plugin]\napi_key = "${SENTINEL}"\nmotto = "${SENTINEL}-motto"\n` },
    });
    expect((test.host.plugins.get('fixture.vault')!.config as { api_key: string }).api_key).toBe(SENTINEL);
    const reach = test.host.getService<{ roots(ctx: unknown): Map<string, unknown> }>('fixture.prober:service:reach')!;
    const roots = reach.roots(test.host.plugins.get('fixture.prober')!.ctx);
    // Every component of every loaded plugin is among the roots, built-ins included.
    expect([...roots.keys()]).toEqual(expect.arrayContaining(['getService(fixture.vault:service:keeper)', 'getService(neo_default_chatter:service:chat_core)']));

    const leaks = findReachable(roots, (value) => (typeof value === 'string' && value.includes(SENTINEL)) || (isPlugin(value) && value.id !== 'fixture.prober'));
    expect(leaks.found.map((leak) => leak.path)).toEqual([]);
    expect(leaks.visited).toBeGreaterThan(500); // the walk went deep, not nowhere
    // The public save cannot be turned into a read: a secret kept from disk is not handed back.
    const prober = test.host.plugins.get('fixture.prober') as unknown as { saveOver(sibling: string, field: string): unknown };
    const saved = prober.saveOver('vault', 'api_key');
    expect(JSON.stringify(saved)).not.toContain(SENTINEL);
    expect(saved).toMatchObject({ ok: true, config: { api_key: '' } });
    // The vault's own components still read its config.
    expect(test.host.getService<{ hasKey(): boolean }>('fixture.vault:service:keeper')!.hasKey()).toBe(true);
    expect(test.logs.filter((record) => record.msg.includes('keeps its plugin'))).toEqual([]);
  });

  it('[security] a component that keeps its plugin in a readable property exposes it, and the host warns its author once', async () => {
    const test = await start({
      builtIns: false,
      plugins: [join(FIXTURES, 'careless'), join(FIXTURES, 'prober')],
      pluginConfigs: { careless: `[plugin]\ntoken = "${SENTINEL}"\n` },
    });
    const reach = test.host.getService<{ roots(ctx: unknown): Map<string, unknown> }>('fixture.prober:service:reach')!;
    const roots = reach.roots(test.host.plugins.get('fixture.prober')!.ctx);
    // The walk is the prober's: it does find a plugin when one is exposed.
    const leaks = findReachable(roots, (value) => isPlugin(value) && value.id !== 'fixture.prober');
    expect(leaks.found.map((leak) => leak.path)).toEqual(['getService(fixture.careless:service:diary).plugin']);
    test.host.getService('fixture.careless:service:diary');
    const warnings = test.logs.filter((record) => record.level === 'warn' && record.msg.includes('keeps its plugin'));
    expect(warnings).toEqual([
      expect.objectContaining({
        signature: 'fixture.careless:service:diary',
        property: 'plugin',
        msg: "fixture.careless:service:diary keeps its plugin in the readable property plugin: any plugin that gets this component can read this plugin's config; keep it in a #private field instead",
      }),
    ]);
  });
});

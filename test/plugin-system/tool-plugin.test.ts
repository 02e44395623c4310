import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/app/create-host.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { PluginNotReadyError } from '../../src/plugin-system/errors/plugin-not-ready-error.js';
import { ToolPlugin, isToolPluginClass } from '../../src/plugin-system/tool-plugin.js';
import { copyFixture, useProjectTempDir } from '../support/temp-dir.js';

const manifest = {
  manifest_version: 1 as const,
  id: 'example.early',
  plugin_type: 'tool' as const,
  name: 'early',
  version: '1.0.0',
  description: 'reads ctx too early',
};

describe('ToolPlugin', () => {
  it('[T-15] throws an error that says so when ctx or config is read before the host set them', () => {
    class Early extends ToolPlugin {
      readonly seen: unknown;
      constructor(m: typeof manifest) {
        super(m);
        try {
          this.seen = this.ctx;
        } catch (error) {
          this.seen = error;
        }
      }
    }
    const plugin = new Early(manifest);
    expect(plugin.seen).toBeInstanceOf(PluginNotReadyError);
    expect(String((plugin.seen as Error).message)).toMatch(/插件 example\.early 的 ctx 尚未注入/);
    expect(() => plugin.config).toThrow(/config 尚未注入/);
  });

  it('recognises subclasses, not ToolPlugin itself or other classes', () => {
    class Mine extends ToolPlugin {}
    expect(isToolPluginClass(Mine)).toBe(true);
    expect(isToolPluginClass(ToolPlugin)).toBe(false);
    expect(isToolPluginClass(class Other {})).toBe(false);
    expect(isToolPluginClass({})).toBe(false);
  });

  it('has defaults: no components, no capabilities, an observer that does nothing', async () => {
    class Plain extends ToolPlugin {}
    const plugin = new Plain(manifest);
    expect(plugin.components()).toEqual([]);
    expect([...(await plugin.streamCapabilities('s'))]).toEqual([]);
    expect(plugin.observeInbound('s', 'm', {})).toBeUndefined();
    expect(plugin.tools()).toEqual([]);
  });
});

describe('a host with plugins', () => {
  const workDir = useProjectTempDir();
  const hosts: Host[] = [];
  afterEach(async () => {
    while (hosts.length > 0) await hosts.pop()!.stop();
  });

  it('[T-10] offers a reversible tool only when features.toml [tools] reversible_enabled lists it', async () => {
    const dir = workDir();
    copyFixture('plugin-roots/third-party/reversible-tool', join(dir, 'plugins', 'reversible-tool'));
    const configDir = join(dir, 'config');
    const offered = async (enabled: string[]): Promise<string[]> => {
      const { mkdirSync } = await import('node:fs');
      mkdirSync(configDir, { recursive: true });
      writeFileSync(join(configDir, 'features.toml'), `[tools]\nreversible_enabled = ${JSON.stringify(enabled)}\n`);
      const host = createHost({
        logger: createMemoryLogger().logger,
        configDir,
        dataDir: join(dir, 'data'),
        pluginRoots: [{ path: join(dir, 'plugins'), builtIn: false }],
      });
      await host.start();
      hosts.push(host);
      const names = host.tools.declarations({ capabilities: new Set() }).map((declaration) => declaration.function.name);
      await host.stop();
      return names;
    };
    expect(await offered([])).toEqual(['read_reminders']);
    expect(await offered(['set_reminder'])).toEqual(['read_reminders', 'set_reminder']);
  });

  it('unloads plugins when the host stops', async () => {
    const dir = workDir();
    copyFixture('plugin-roots/third-party/good-echo', join(dir, 'plugins', 'good-echo'));
    const host = createHost({
      logger: createMemoryLogger().logger,
      appConfig: {},
      dataDir: join(dir, 'data'),
      pluginRoots: [{ path: join(dir, 'plugins'), builtIn: false }],
    });
    await host.start();
    const echo = host.plugins.get('fixture.good-echo') as unknown as { unloads: number };
    expect(host.getService('fixture.good-echo:service:echo_store')).toBeDefined();
    await host.stop();
    expect(echo.unloads).toBe(1);
    expect(host.registry.list()).toEqual([]);
  });
});

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { createTestManager, fixtureEvaluations } from '../support/plugin-manager.js';
import { useProjectTempDir } from '../support/temp-dir.js';

const ALL_THIRD_PARTY = [
  'good-echo',
  'good-second',
  'bad-json',
  'missing-field',
  'manifest-v2',
  'two-classes',
  'no-class',
  'import-throws',
  'onload-throws',
  'sync-tool',
  'irreversible-tool',
  'version-too-new',
  'no-range',
  'broken-config',
  'disabled-false',
  'adapter-manifest',
  'js-entry',
];

const context = (capabilities: string[] = []) => ({ streamId: 's1', signal: new AbortController().signal, capabilities: new Set(capabilities) });

describe('PluginManager', () => {
  const workDir = useProjectTempDir();
  beforeEach(() => {
    fixtureEvaluations().length = 0;
  });

  describe('a root full of broken plugins beside good ones', () => {
    it('[T-24] loads the good plugins and gives every broken one its own reason', async () => {
      const { manager, status } = createTestManager(workDir(), { thirdParty: ALL_THIRD_PARTY });
      await manager.loadAll();
      const states = Object.fromEntries(manager.list().map((entry) => [entry.folder.split('/').at(-1), [entry.state, entry.stage]]));
      expect(states).toEqual({
        'adapter-manifest': ['skipped', 'type'],
        'bad-json': ['skipped', 'manifest'],
        'broken-config': ['loaded', undefined],
        'disabled-false': ['disabled', 'switch'],
        'good-echo': ['loaded', undefined],
        'good-second': ['loaded', undefined],
        'import-throws': ['failed', 'entry'],
        'irreversible-tool': ['failed', 'register'],
        'js-entry': ['loaded', undefined],
        'manifest-v2': ['skipped', 'manifest'],
        'missing-field': ['skipped', 'manifest'],
        'no-class': ['failed', 'entry'],
        'no-range': ['skipped', 'version'],
        'onload-throws': ['failed', 'load'],
        'sync-tool': ['failed', 'entry'],
        'two-classes': ['failed', 'entry'],
        'version-too-new': ['skipped', 'version'],
      });
      expect(manager.plugins().map((plugin) => plugin.id)).toEqual([
        'fixture.broken-config',
        'fixture.good-echo',
        'fixture.good-second',
        'fixture.js-entry',
      ]);
      expect(status('bad-json')!.reason).toMatch(/bad-json\/_manifest\.json:\n {2}- \(file\): is not valid JSON/);
      expect(status('missing-field')!.reason).toMatch(/description: 清单缺少必填字段/);
      expect(status('manifest-v2')!.reason).toMatch(/manifest_version: .*must be exactly 1/);
      expect(status('two-classes')!.reason).toMatch(/多个 ToolPlugin 子类.*FirstEntry、SecondEntry/);
      expect(status('no-class')!.reason).toMatch(/没有导出 ToolPlugin 子类.*exports found: helper \(number\), notAPlugin \(function or class\)/);
      expect(status('import-throws')!.reason).toMatch(/the entry blew up at import/);
      expect(status('onload-throws')!.reason).toMatch(/database unreachable/);
      expect(status('sync-tool')!.reason).toMatch(/sync_tool.*must be an async method/);
      expect(status('irreversible-tool')!.reason).toMatch(/工具 delete_everything 具有不可逆副作用，不允许注册/);
      expect(status('version-too-new')!.reason).toMatch(/当前宿主 0\.1\.0，要求 min_version=99\.0\.0/);
    });

    it('[T-04] refuses a manifest with a missing field or manifest_version 2 before running its code, and logs the folder', async () => {
      const { manager, logs } = createTestManager(workDir(), { thirdParty: ['missing-field', 'manifest-v2', 'good-second'] });
      await manager.loadAll();
      const errors = logs('插件清单加载失败，已跳过该插件');
      expect(errors.map((record) => String(record['directory']).split('/').at(-1)).sort()).toEqual(['manifest-v2', 'missing-field']);
      expect(manager.plugins().map((plugin) => plugin.id)).toEqual(['fixture.good-second']);
    });
  });

  describe('discovery', () => {
    it('[T-02] scans built-in first: with the same id in both roots the built-in wins and the other entry never runs', async () => {
      const { manager, logs } = createTestManager(workDir(), { builtIn: ['shared-id'], thirdParty: ['shared-id'] });
      await manager.loadAll();
      expect(fixtureEvaluations()).toEqual(['shared-id:built-in']);
      expect(manager.plugins().map((plugin) => plugin.constructor.name)).toEqual(['BuiltInShared']);
      const [warning] = logs('插件 id 冲突，先扫描到的生效，后者被忽略');
      expect(String(warning!['kept'])).toMatch(/built-in\/shared-id$/);
      expect(String(warning!['ignored'])).toMatch(/third-party\/shared-id$/);
    });

    it('[T-01] treats a missing root as empty', async () => {
      const { manager, roots } = createTestManager(workDir());
      const { rmSync } = await import('node:fs');
      rmSync(roots.thirdParty, { recursive: true });
      await expect(manager.loadAll()).resolves.toEqual([]);
    });

    it('[T-25] warns about an adapter manifest in a plugin root and never runs its code', async () => {
      const { manager, logs } = createTestManager(workDir(), { thirdParty: ['adapter-manifest'] });
      await manager.loadAll();
      expect(logs('插件根目录下发现非工具插件，已忽略')).toHaveLength(1);
      expect(fixtureEvaluations()).toEqual([]);
    });

    it('[T-01] loads folders in sorted order, a plugin.js entry too, with no host code changed', async () => {
      const { manager } = createTestManager(workDir(), { thirdParty: ['js-entry', 'good-second', 'good-echo'] });
      await manager.loadAll();
      expect(manager.list().map((entry) => entry.folder.split('/').at(-1))).toEqual(['good-echo', 'good-second', 'js-entry']);
      expect(manager.get('fixture.js-entry')?.constructor.name).toBe('JsEntryPlugin');
    });
  });

  describe('host versions', () => {
    it('[T-27] skips an out-of-range plugin before running its code, with the reason apart from format errors', async () => {
      const { manager, status, logs } = createTestManager(workDir(), { thirdParty: ['version-too-new', 'no-range'] });
      await manager.loadAll();
      expect(fixtureEvaluations()).toEqual([]);
      expect(status('version-too-new')).toMatchObject({ state: 'skipped', stage: 'version' });
      expect(status('no-range')!.reason).toMatch(/第三方插件缺少 host_application/);
      expect(logs('插件与宿主版本不兼容，已跳过该插件')).toHaveLength(2);
      expect(logs('插件清单加载失败，已跳过该插件')).toHaveLength(0);
    });

    it('[T-27] loads a plugin whose max_version is below the host only by patch, in compatibility mode, noticed once per process', async () => {
      const first = createTestManager(workDir(), { thirdParty: ['good-echo'], hostVersion: '0.1.12' });
      await first.manager.loadAll();
      expect(first.status('good-echo')).toMatchObject({ state: 'loaded', compatibilityMode: true });
      expect(first.logs(/仅补丁号超出上界，按兼容模式加载/)).toHaveLength(1);
      await first.manager.unloadAll();
      const second = createTestManager(workDir(), { thirdParty: ['good-echo'], hostVersion: '0.1.12' });
      await second.manager.loadAll();
      expect(second.status('good-echo')).toMatchObject({ state: 'loaded', compatibilityMode: true });
      expect(second.logs(/仅补丁号超出上界/)).toHaveLength(0);
      const minorAbove = createTestManager(workDir(), { thirdParty: ['good-echo'], hostVersion: '0.2.0' });
      await minorAbove.manager.loadAll();
      expect(minorAbove.status('good-echo')).toMatchObject({ state: 'skipped', stage: 'version' });
    });

    it('[T-28] force_compatibility loads mismatched and range-less third-party plugins with a warning each, never bad manifests', async () => {
      const { manager, status, logs } = createTestManager(workDir(), {
        thirdParty: ['version-too-new', 'no-range', 'manifest-v2'],
        forceCompatibility: true,
      });
      await manager.loadAll();
      expect(status('version-too-new')).toMatchObject({ state: 'loaded', compatibilityMode: true });
      expect(status('no-range')).toMatchObject({ state: 'loaded', compatibilityMode: true });
      expect(status('manifest-v2')).toMatchObject({ state: 'skipped', stage: 'manifest' });
      expect(logs(/force_compatibility 已开启/)).toHaveLength(2);
    });
  });

  describe('the entry', () => {
    it('[T-05] refuses an entry with two ToolPlugin classes, listing them', async () => {
      const { manager, status } = createTestManager(workDir(), { thirdParty: ['two-classes'] });
      await manager.loadAll();
      expect(status('two-classes')).toMatchObject({ state: 'failed', stage: 'entry' });
      expect(status('two-classes')!.reason).toContain('FirstEntry、SecondEntry');
    });

    it('[T-08] refuses a plugin with a sync tool at import', async () => {
      const { manager, status, tools } = createTestManager(workDir(), { thirdParty: ['sync-tool'] });
      await manager.loadAll();
      expect(status('sync-tool')!.reason).toMatch(/MG_TOOL_DECLARATION|must be an async method/);
      expect(tools.list()).toEqual([]);
    });

    it('runs the entry code again on a retry after a failed import', async () => {
      const dir = workDir();
      const first = createTestManager(dir, { thirdParty: ['import-throws'] });
      await first.manager.loadAll();
      await first.manager.loadAll();
      expect(fixtureEvaluations()).toEqual(['import-throws', 'import-throws']);
    });
  });

  describe('the lifecycle', () => {
    it('[T-06] [T-16] constructs the plugin with the manifest alone and [T-15] sets config and ctx before onLoad', async () => {
      const { manager, roots } = createTestManager(workDir(), { thirdParty: ['good-echo'] });
      await manager.loadAll();
      const plugin = manager.get('fixture.good-echo') as unknown as {
        manifest: { id: string };
        config: { enabled: boolean; prefix: string };
        ctx: { paths: { pluginDir: string; dataDir: string; configFile: string }; host: { version: string } };
        loads: number;
      };
      expect(plugin.manifest.id).toBe('fixture.good-echo');
      expect(plugin.config).toEqual({ enabled: true, prefix: 'echo: ' });
      expect(plugin.ctx.paths.pluginDir).toBe(join(roots.thirdParty, 'good-echo'));
      expect(existsSync(plugin.ctx.paths.dataDir)).toBe(true);
      // [issue 19] the file its settings are read from, the one savePluginConfig should write
      expect(plugin.ctx.paths.configFile).toBe((await manager.configOf('fixture.good-echo')).file);
      expect(existsSync(plugin.ctx.paths.configFile)).toBe(true);
      expect(plugin.ctx.host.version).toBe('0.1.0');
      expect(Object.isFrozen(plugin.ctx)).toBe(true);
      expect(plugin.loads).toBe(1);
    });

    it('[T-12] registers every plugin’s tools and components before any onLoad runs', async () => {
      const { manager, tools, registry } = createTestManager(workDir(), { thirdParty: ['good-echo', 'onload-throws'] });
      const timeline = (((globalThis as Record<string, unknown>)['__fixtureTimeline'] = []) as string[]);
      const register = tools.register.bind(tools);
      tools.register = (owner, definition) => (timeline.push(`register:${definition.name}`), register(owner, definition));
      await manager.loadAll();
      expect(timeline).toEqual(['register:echo_text', 'register:never_offered', 'onLoad:good-echo', 'onLoad:onload-throws']);
      expect(registry.list({ pluginId: 'fixture.good-echo' }).map((record) => record.signature)).toEqual([
        'fixture.good-echo:tool:echo_text',
        'fixture.good-echo:service:echo_store',
        'fixture.good-echo:event_handler:shout',
      ]);
    });

    it('[T-24] removes only the plugin whose onLoad throws, with its tools, and logs its id', async () => {
      const { manager, tools, registry, logs } = createTestManager(workDir(), { thirdParty: ['onload-throws', 'good-echo'] });
      await manager.loadAll();
      expect(tools.get('never_offered')).toBeUndefined();
      expect(registry.list({ pluginId: 'fixture.onload-throws' })).toEqual([]);
      expect(logs('工具插件加载失败，已从注册表移除')[0]).toMatchObject({ id: 'fixture.onload-throws', error: 'Error: database unreachable' });
      expect(manager.get('fixture.good-echo')).toBeDefined();
    });

    it('runs registered components and tools of a loaded plugin', async () => {
      const { manager, tools, bus, registry } = createTestManager(workDir(), { thirdParty: ['good-echo'] });
      await manager.loadAll();
      expect((await bus.publish('fixture:echo', { text: 'hi' })).params).toEqual({ text: 'HI' });
      expect(registry.get('fixture.good-echo:service:echo_store')).toBeDefined();
      const result = await tools.execute({ toolName: 'echo_text', callId: 'c1', arguments: { text: '月璃' } }, context());
      expect(result).toMatchObject({ success: true, observation: 'echo: 月璃' });
      const tooLong = await tools.execute({ toolName: 'echo_text', callId: 'c2', arguments: { text: 'x'.repeat(51) } }, context());
      expect(tooLong).toMatchObject({ success: false, errorMessage: expect.stringContaining('参数 text') });
    });

    it('unloads newest first, runs onUnload once, disposes everything, and is idempotent', async () => {
      const { manager, tools, registry, bus } = createTestManager(workDir(), { thirdParty: ['good-echo', 'good-second'] });
      const order: string[] = [];
      bus.subscribe('on_plugin_unloaded', (_name, params) => (order.push(String(params.plugin_id)), [EventDecision.PASS, params]));
      await manager.loadAll();
      const echo = manager.get('fixture.good-echo') as unknown as { unloads: number };
      await manager.unloadAll();
      await manager.unloadAll();
      expect(order).toEqual(['fixture.good-second', 'fixture.good-echo']);
      expect(echo.unloads).toBe(1);
      expect(tools.list()).toEqual([]);
      expect(registry.list()).toEqual([]);
      expect(bus.subscribers('fixture:echo')).toEqual([]);
    });

    it('publishes on_component_loaded for each signature and on_all_plugin_loaded once', async () => {
      const { manager, bus } = createTestManager(workDir(), { thirdParty: ['good-echo'] });
      const loaded: string[] = [];
      const all: unknown[] = [];
      bus.subscribe('on_component_loaded', (_name, params) => (loaded.push(String(params.signature)), [EventDecision.PASS, params]));
      bus.subscribe('on_all_plugin_loaded', (_name, params) => (all.push(params.plugins), [EventDecision.PASS, params]));
      await manager.loadAll();
      expect(loaded).toEqual(['fixture.good-echo:tool:echo_text', 'fixture.good-echo:service:echo_store', 'fixture.good-echo:event_handler:shout']);
      expect(all).toEqual([['fixture.good-echo']]);
    });
  });

  describe('the switch and config files', () => {
    it('[T-17] phase 1: a literal enabled = false skips the plugin before its code is imported', async () => {
      const { manager, status, logs } = createTestManager(workDir(), { thirdParty: ['disabled-false'] });
      await manager.loadAll();
      expect(fixtureEvaluations()).toEqual([]);
      expect(status('disabled-false')!.state).toBe('disabled');
      expect(logs('工具插件已在自身配置中关闭')).toHaveLength(1);
    });

    it('[T-18] an unreadable config.toml counts as enabled, with one warning, and the plugin runs on defaults', async () => {
      const { manager, roots, warnings } = createTestManager(workDir(), { thirdParty: ['broken-config'] });
      await manager.loadAll();
      expect(warnings().filter((record) => String(record['file'] ?? '').endsWith('broken-config/config.toml'))).toHaveLength(1);
      const plugin = manager.get('fixture.broken-config') as unknown as { config: { level: number } };
      expect(plugin.config.level).toBe(3);
      expect(readFileSync(join(roots.thirdParty, 'broken-config', 'config.toml'), 'utf8')).toBe('[plugin\nenabled = tru\n');
    });

    it('[T-03] [T-13] [T-20] generates config.toml on first discovery, logging 已生成插件配置 and 工具插件已加载', async () => {
      const { manager, roots, logs } = createTestManager(workDir(), { thirdParty: ['good-echo'] });
      await manager.loadAll();
      const text = readFileSync(join(roots.thirdParty, 'good-echo', 'config.toml'), 'utf8');
      expect(text).toContain('[plugin]');
      expect(text).toMatch(/# Put before every echo\nprefix = "echo: "/);
      expect(logs('已生成插件配置')).toHaveLength(1);
      expect(logs('工具插件已加载')[0]).toMatchObject({ id: 'fixture.good-echo', name: 'fixture.good-echo', version: '1.0.0' });
    });

    it('[T-17] phase 2: the model decides, so a coercible "off" value turns the plugin off after import', async () => {
      const dir = workDir();
      const { manager, roots, status } = createTestManager(dir, { thirdParty: ['good-second'] });
      writeFileSync(join(roots.thirdParty, 'good-second', 'config.toml'), '[plugin]\nenabled = false\n');
      await manager.loadAll();
      expect(status('good-second')!.stage).toBe('switch');
    });
  });

  describe('per-stream hooks', () => {
    it('[T-23] unions the capabilities plugins contribute, and removes a plugin whose query throws', async () => {
      const { manager, logs } = createTestManager(workDir(), { thirdParty: ['good-echo', 'good-second'] });
      await manager.loadAll();
      const echo = manager.get('fixture.good-echo')!;
      const second = manager.get('fixture.good-second')!;
      echo.streamCapabilities = (streamId: string) => (streamId === 's1' ? ['forward_message'] : []);
      second.streamCapabilities = () => {
        throw new Error('index corrupt');
      };
      expect([...(await manager.streamCapabilities('s1'))]).toEqual(['forward_message']);
      expect([...(await manager.streamCapabilities('s2'))]).toEqual([]);
      expect(manager.get('fixture.good-second')).toBeUndefined();
      expect(logs(/streamCapabilities 中出错/)[0]).toMatchObject({ id: 'fixture.good-second' });
    });

    it('[T-23] an asynchronous answer counts too; one past the timeout, or one that is not a list, removes its plugin', async () => {
      const { manager, logs, clock } = createTestManager(workDir(), { thirdParty: ['good-echo', 'good-second'] });
      await manager.loadAll();
      const echo = manager.get('fixture.good-echo')!;
      echo.streamCapabilities = async () => ['forward_message'];
      manager.get('fixture.good-second')!.streamCapabilities = () => new Promise<string[]>(() => undefined); // never answers
      const asked = manager.streamCapabilities('s1');
      await clock.advance(2_000);
      expect([...(await asked)]).toEqual(['forward_message']);
      expect(manager.get('fixture.good-second')).toBeUndefined();
      expect(logs(/streamCapabilities 中出错/)[0]).toMatchObject({ id: 'fixture.good-second' });
      echo.streamCapabilities = async () => 42 as unknown as string[];
      expect([...(await manager.streamCapabilities('s1'))]).toEqual([]);
      expect(manager.get('fixture.good-echo')).toBeUndefined();
    });

    it('[T-22] shows every inbound message to plugins without waiting, and removes one whose observer throws', async () => {
      const { manager } = createTestManager(workDir(), { thirdParty: ['good-echo', 'good-second'] });
      await manager.loadAll();
      const seen: string[] = [];
      let release!: () => void;
      manager.get('fixture.good-echo')!.observeInbound = (streamId, messageId) =>
        new Promise<void>((resolve) => {
          seen.push(`${streamId}/${messageId}`);
          release = resolve;
        });
      manager.get('fixture.good-second')!.observeInbound = async () => {
        throw new Error('observer broke');
      };
      manager.observeInbound('s1', 'm1', { text: 'hi' }); // returns at once, while the first observer still waits
      expect(seen).toEqual(['s1/m1']);
      await new Promise((resolve) => setImmediate(resolve));
      expect(manager.get('fixture.good-second')).toBeUndefined();
      expect(manager.get('fixture.good-echo')).toBeDefined();
      release();
    });
  });
});

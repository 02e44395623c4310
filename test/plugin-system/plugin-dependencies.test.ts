import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { writePluginFolder } from './support/plugin-folders.js';

// Issue 14, item 5: plugins declare the plugins they need (manifest `dependencies`, semver
// ranges, optional ones marked); they load in dependency order, and a broken dependency skips
// its dependents with a reason naming it, before their code runs.

const store = globalThis as Record<string, unknown>;
const timeline = () => ((store['__dependencyTimeline'] ??= []) as string[]).splice(0);

interface PluginSpec {
  id: string;
  version?: string;
  dependencies?: Record<string, string | { version: string; optional?: boolean }>;
  onLoadThrows?: boolean;
}

/** Writes plugin folders (manifest + plugin.ts recording its import and onLoad) under `root`. */
function writePlugins(root: string, specs: readonly PluginSpec[]): string[] {
  return specs.map((spec) =>
    writePluginFolder(root, {
      id: spec.id,
      ...(spec.version === undefined ? {} : { version: spec.version }),
      ...(spec.dependencies === undefined ? {} : { dependencies: spec.dependencies }),
      source: `import { ToolPlugin } from 'moonglass';
const timeline = ((globalThis as Record<string, unknown>)['__dependencyTimeline'] ??= []) as string[];
timeline.push('import:${spec.id}');
export class Plugin extends ToolPlugin {
  override async onLoad(): Promise<void> {
    timeline.push('onLoad:${spec.id}');
    ${spec.onLoadThrows === true ? "throw new Error('broken on purpose');" : ''}
  }
  override async onUnload(): Promise<void> {
    timeline.push('onUnload:${spec.id}');
  }
}
`,
    }),
  );
}

describe('plugin dependencies', () => {
  const tempDir = useProjectTempDir();

  function managerFor(specs: readonly PluginSpec[]) {
    const work = tempDir();
    const folders = writePlugins(join(work, 'sources'), specs);
    timeline();
    return createTestManager(work, { builtInFolders: folders });
  }

  it('[issue 14.5] a chain of three loads in dependency order, whatever the scan order', async () => {
    const test = managerFor([
      { id: 'c.top', dependencies: { 'b.middle': '^1.0.0' } },
      { id: 'b.middle', dependencies: { 'a.base': '>=1.0.0 <2.0.0' } },
      { id: 'a.base' },
    ]);
    await test.manager.loadAll();
    expect(timeline().filter((entry) => entry.startsWith('onLoad'))).toEqual(['onLoad:a.base', 'onLoad:b.middle', 'onLoad:c.top']);
    expect(test.manager.list().map((status) => [status.id, status.state])).toEqual(
      expect.arrayContaining([
        ['a.base', 'loaded'],
        ['b.middle', 'loaded'],
        ['c.top', 'loaded'],
      ]),
    );
  });

  it('[issue 14.5] a missing middle one skips the last with the reason, before its code runs', async () => {
    const test = managerFor([{ id: 'c.top', dependencies: { 'b.middle': '^1.0.0' } }, { id: 'a.base' }]);
    await test.manager.loadAll();
    const top = test.manager.list().find((status) => status.id === 'c.top')!;
    expect(top).toMatchObject({ state: 'skipped', stage: 'dependencies', reason: '依赖插件 b.middle 未找到（需要 ^1.0.0）' });
    expect(timeline()).not.toContain('import:c.top');
  });

  it('[issue 14.5] an out-of-range dependency and its dependents are skipped, cascading, and an optional missing one is not needed', async () => {
    const test = managerFor([
      { id: 'a.base', version: '2.1.0' },
      { id: 'b.middle', dependencies: { 'a.base': '^1.0.0' } },
      { id: 'c.top', dependencies: { 'b.middle': '*' } },
      { id: 'd.free', dependencies: { 'x.absent': { version: '*', optional: true } } },
    ]);
    await test.manager.loadAll();
    const reasonOf = (id: string) => test.manager.list().find((status) => status.id === id)!.reason;
    expect(reasonOf('b.middle')).toBe('依赖插件 a.base 的版本 2.1.0 不满足 ^1.0.0');
    expect(reasonOf('c.top')).toContain('依赖插件 b.middle 无法加载');
    expect(test.manager.list().find((status) => status.id === 'd.free')!.state).toBe('loaded');
  });

  it('[issue 14.5] a cycle is reported naming its members, and only they are skipped', async () => {
    const test = managerFor([
      { id: 'x.one', dependencies: { 'y.two': '*' } },
      { id: 'y.two', dependencies: { 'x.one': '*' } },
      { id: 'z.alone' },
    ]);
    await test.manager.loadAll();
    const statuses = test.manager.list();
    for (const id of ['x.one', 'y.two']) {
      const status = statuses.find((entry) => entry.id === id)!;
      expect(status.state).toBe('skipped');
      expect(status.reason).toMatch(/^依赖成环：/);
      expect(status.reason).toContain('x.one');
      expect(status.reason).toContain('y.two');
    }
    expect(statuses.find((entry) => entry.id === 'z.alone')!.state).toBe('loaded');
  });

  it('[issue 14.5] a dependency that fails its onLoad skips its dependent before the dependent’s onLoad', async () => {
    const test = managerFor([{ id: 'a.base', onLoadThrows: true }, { id: 'b.user', dependencies: { 'a.base': '*' } }]);
    await test.manager.loadAll();
    expect(timeline()).not.toContain('onLoad:b.user');
    expect(test.manager.list().find((status) => status.id === 'b.user')).toMatchObject({ state: 'skipped', stage: 'dependencies', reason: expect.stringContaining('依赖插件 a.base 未能加载') });
  });

  it('[issue 14.5] reloading a dependency reloads its dependents after it', async () => {
    const test = managerFor([{ id: 'a.base' }, { id: 'b.user', dependencies: { 'a.base': '*' } }]);
    await test.manager.loadAll();
    timeline();
    await test.manager.reload('a.base');
    expect(timeline().filter((entry) => !entry.startsWith('import'))).toEqual(['onUnload:a.base', 'onLoad:a.base', 'onUnload:b.user', 'onLoad:b.user']);
  });

  it('[issue 14.5] a dependency range that is not semver is refused in the manifest, naming the field', async () => {
    const test = managerFor([{ id: 'a.base', dependencies: { 'b.other': 'one point oh' } }]);
    await test.manager.loadAll();
    expect(test.manager.list().find((status) => status.folder.endsWith('/a.base'))).toMatchObject({ state: 'skipped', stage: 'manifest', reason: expect.stringContaining('dependencies') });
  });
});

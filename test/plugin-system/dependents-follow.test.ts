import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { flushMicrotasks } from 'moonglass/testing';
import { createTestManager } from '../support/plugin-manager.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { type PluginFolderSpec, recorded, recorderSource, writePluginFolder } from './support/plugin-folders.js';

// Issue 14, item 5: a dependent follows its dependency at run time. Skipped because the
// dependency was switched off or failed, it loads after the dependency comes up (switched on
// or reloaded); loaded, it reloads after the dependency, once, and unloads (skipped, naming
// the dependency) when the dependency goes down.

const KEY = '__dependentsTimeline';
const failing = (): string[] => (((globalThis as Record<string, unknown>)['__dependentsFailing'] ??= []) as string[]);

function source(id: string): string {
  return `import { ToolPlugin } from 'moonglass';
${recorderSource(KEY)}
record('import:${id}');
export class Plugin extends ToolPlugin {
  override async onLoad(): Promise<void> {
    record('onLoad:${id}');
    if ((((globalThis as Record<string, unknown>)['__dependentsFailing'] ?? []) as string[]).includes('${id}')) throw new Error('broken on purpose');
  }
  override async onUnload(): Promise<void> { record('onUnload:${id}'); }
  override observeInbound(): void {
    if ((((globalThis as Record<string, unknown>)['__dependentsFailing'] ?? []) as string[]).includes('${id}')) throw new Error('observer broken on purpose');
  }
}
`;
}

describe('dependents follow their dependency at run time', () => {
  const tempDir = useProjectTempDir();
  afterEach(() => void failing().splice(0));

  /** Plugins with the given dependencies; `switchedOff` ones get a config.toml with enabled = false. */
  function setUp(specs: readonly Omit<PluginFolderSpec, 'source'>[], switchedOff: readonly string[] = []) {
    const work = tempDir();
    const folders = specs.map((spec) => writePluginFolder(join(work, 'sources'), { ...spec, source: source(spec.id) }));
    const test = createTestManager(work, { builtInFolders: folders });
    const setEnabled = (id: string, enabled: boolean) => writeFileSync(join(test.roots.builtIn, id, 'config.toml'), `[plugin]\nenabled = ${enabled}\n`);
    for (const id of switchedOff) setEnabled(id, false);
    recorded(KEY);
    const statusOf = (id: string) => test.manager.list().find((status) => status.id === id)!;
    const lifecycle = () => recorded(KEY).filter((entry) => !entry.startsWith('import'));
    return { ...test, setEnabled, statusOf, lifecycle };
  }

  it('[issue 14.5] a plugin skipped because its dependency is switched off names it, and loads after it once it is switched on', async () => {
    const test = setUp([{ id: 'a.base' }, { id: 'b.user', dependencies: { 'a.base': '^1.0.0' } }], ['a.base']);
    await test.manager.loadAll();
    expect(test.statusOf('b.user')).toMatchObject({ state: 'skipped', stage: 'dependencies', reason: '依赖插件 a.base 已关闭' });
    expect(recorded(KEY)).toEqual([]); // neither plugin's code ran
    await expect(test.manager.reload('b.user')).resolves.toMatchObject({ state: 'skipped', reason: '依赖插件 a.base 已关闭' });
    expect(recorded(KEY)).toEqual([]);

    test.setEnabled('a.base', true);
    await test.manager.reload('a.base');
    expect(test.lifecycle()).toEqual(['onLoad:a.base', 'onLoad:b.user']);
    expect(test.statusOf('b.user')).toMatchObject({ state: 'loaded', stage: undefined, reason: undefined });
  });

  it('[issue 14.5] a chain skipped behind a failed dependency loads in order once the dependency reloads successfully', async () => {
    const test = setUp([
      { id: 'c.top', dependencies: { 'b.middle': '*' } },
      { id: 'b.middle', dependencies: { 'a.base': '*' } },
      { id: 'a.base' },
    ]);
    failing().push('a.base');
    await test.manager.loadAll();
    expect(test.statusOf('b.middle')).toMatchObject({ state: 'skipped', reason: expect.stringContaining('依赖插件 a.base 未能加载') });
    expect(test.statusOf('c.top')).toMatchObject({ state: 'skipped', reason: expect.stringContaining('依赖插件 b.middle') });
    test.lifecycle();

    failing().splice(0);
    await test.manager.reload('a.base');
    expect(test.lifecycle()).toEqual(['onLoad:a.base', 'onLoad:b.middle', 'onLoad:c.top']);
    expect(test.manager.plugins().map((plugin) => plugin.id)).toEqual(['a.base', 'b.middle', 'c.top']);
  });

  it('[issue 14.5] a dependent that depends on the reloaded plugin directly and through another reloads once, after both', async () => {
    const test = setUp([
      { id: 'a.base' },
      { id: 'b.middle', dependencies: { 'a.base': '*' } },
      { id: 'c.top', dependencies: { 'a.base': '*', 'b.middle': '*' } },
    ]);
    await test.manager.loadAll();
    test.lifecycle();
    await test.manager.reload('a.base');
    expect(test.lifecycle()).toEqual(['onUnload:a.base', 'onLoad:a.base', 'onUnload:b.middle', 'onLoad:b.middle', 'onUnload:c.top', 'onLoad:c.top']);
  });

  it('[issue 14.5] a dependency that fails its reload takes its loaded dependents down, skipped with its name, and an optional dependent reloads without it', async () => {
    const test = setUp([
      { id: 'a.base' },
      { id: 'b.user', dependencies: { 'a.base': '*' } },
      { id: 'd.free', dependencies: { 'a.base': { version: '*', optional: true } } },
    ]);
    await test.manager.loadAll();
    test.lifecycle();
    failing().push('a.base');
    await test.manager.reload('a.base');
    expect(test.lifecycle()).toEqual(['onUnload:a.base', 'onLoad:a.base', 'onUnload:b.user', 'onUnload:d.free', 'onLoad:d.free']);
    expect(test.statusOf('b.user')).toMatchObject({ state: 'skipped', stage: 'dependencies', reason: expect.stringContaining('依赖插件 a.base 未能加载（failed：') });
    expect(test.manager.plugins().map((plugin) => plugin.id)).toEqual(['d.free']);
  });

  it('[issue 14.5] a dependency removed for a fault at run time takes its dependents down with it', async () => {
    const test = setUp([{ id: 'a.base' }, { id: 'b.user', dependencies: { 'a.base': '*' } }]);
    await test.manager.loadAll();
    test.lifecycle();
    failing().push('a.base');
    test.manager.observeInbound('stream', 'message', {});
    // The observer's fault is handled in the background: let that work run (no time passes).
    for (let turn = 0; turn < 50 && test.statusOf('b.user').state !== 'skipped'; turn += 1) await flushMicrotasks();
    expect(test.statusOf('a.base')).toMatchObject({ state: 'failed', stage: 'runtime' });
    expect(test.statusOf('b.user').reason).toContain('依赖插件 a.base 未能加载');
    expect(test.manager.plugins()).toEqual([]);
  });
});

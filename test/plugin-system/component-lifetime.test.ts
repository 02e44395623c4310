import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestHost } from 'moonglass/testing';
import { createTestManager } from '../support/plugin-manager.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { recorded, recorderSource, writePluginFolder } from './support/plugin-folders.js';

// Issue 14, item 6: getService builds a new instance per call by default; a component
// declared `lifetime: 'singleton'` is built once per plugin load, shared by every getService
// and injection, and disposed with the plugin.

const KEY = '__lifetimeTimeline';

const cacheSource = `import { ToolPlugin, getService, inject, service } from 'moonglass';
${recorderSource(KEY)}
let built = 0;
@service('cache', { lifetime: 'singleton' })
export class Cache {
  readonly serial = ++built;
  readonly entries = new Map<string, string>();
  dispose(): void { record('dispose cache ' + this.serial); }
}
@service('plain')
export class Plain {
  dispose(): void { record('dispose plain'); }
}
@service('reader')
export class Reader { constructor(@inject('life.cache:service:cache') readonly cache: Cache) {} }
@service('writer')
export class Writer { constructor(@inject('life.cache:service:cache') readonly cache: Cache) {} }
export class CachePlugin extends ToolPlugin {
  override components() { return [Cache, Plain, Reader, Writer]; }
  override async onLoad(): Promise<void> {
    this.ctx.effect(() => () => record('cleanup before'));
    if ((globalThis as Record<string, unknown>)['__lifetimeBuildInOnLoad'] === true) getService('life.cache:service:cache');
    this.ctx.effect(() => () => record('cleanup after'));
  }
}
`;

describe('component lifetimes', () => {
  const tempDir = useProjectTempDir();

  async function loadCache() {
    const work = tempDir();
    const folder = writePluginFolder(join(work, 'sources'), { id: 'life.cache', source: cacheSource });
    const test = createTestManager(work, { builtInFolders: [folder] });
    await test.manager.loadAll();
    recorded(KEY);
    return test;
  }

  it('[issue 14.6] a singleton is one instance across getService calls and across injection into two other components', async () => {
    const { registry } = await loadCache();
    const cache = registry.get<{ serial: number; entries: Map<string, string> }>('life.cache:service:cache')!;
    cache.entries.set('k', 'v');
    expect(registry.get('life.cache:service:cache')).toBe(cache);
    const reader = registry.get<{ cache: unknown }>('life.cache:service:reader')!;
    const writer = registry.get<{ cache: unknown }>('life.cache:service:writer')!;
    expect(reader.cache).toBe(cache);
    expect(writer.cache).toBe(cache);
    // Components without a lifetime stay transient.
    expect(reader).not.toBe(registry.get('life.cache:service:reader'));
    expect(registry.get('life.cache:service:plain')).not.toBe(registry.get('life.cache:service:plain'));
  });

  it('[issue 14.6] a reload disposes the instance and builds a new one; a transient one is never disposed', async () => {
    const { registry, manager } = await loadCache();
    const before = registry.get<{ serial: number; entries: Map<string, string> }>('life.cache:service:cache')!;
    before.entries.set('k', 'v');
    registry.get('life.cache:service:plain');
    await manager.reload('life.cache');
    expect(recorded(KEY)).toEqual(['dispose cache 1', 'cleanup after', 'cleanup before']);
    const after = registry.get<{ serial: number; entries: Map<string, string> }>('life.cache:service:cache')!;
    expect(after).not.toBe(before);
    expect(after.entries.size).toBe(0);
    expect(registry.get('life.cache:service:cache')).toBe(after);
  });

  it('[issue 14.6] unloading disposes the singleton once, and one never built is not built to be disposed', async () => {
    const built = await loadCache();
    built.registry.get('life.cache:service:cache');
    await built.manager.unloadAll();
    await built.manager.unloadAll();
    expect(recorded(KEY)).toEqual(['dispose cache 1', 'cleanup after', 'cleanup before']);

    const never = await loadCache();
    await never.manager.unloadAll();
    expect(recorded(KEY)).toEqual(['cleanup after', 'cleanup before']);
  });

  it('[issue 14.6] the instance is disposed newest first with the plugin’s other effects', async () => {
    const work = tempDir();
    const folder = writePluginFolder(join(work, 'sources'), { id: 'life.cache', source: cacheSource });
    (globalThis as Record<string, unknown>)['__lifetimeBuildInOnLoad'] = true;
    try {
      const test = await createTestHost({ builtIns: false, plugins: [folder] });
      recorded(KEY);
      await test.stop();
    } finally {
      delete (globalThis as Record<string, unknown>)['__lifetimeBuildInOnLoad'];
    }
    expect(recorded(KEY)).toEqual(['cleanup after', 'dispose cache 1', 'cleanup before']);
  });
});

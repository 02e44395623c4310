import { beforeEach, describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// Issue 13, item 6: a plugin cannot hang the host. onLoad, onUnload and a reload each have
// the lifecycle timeout; past it the plugin is reported failed with the step, and the host
// goes on. Time is the manager's manual clock.

const store = globalThis as Record<string, unknown>;
const timeline = () => store['__fixtureTimeline'] as string[];

/**
 * A manager over copies of third-party fixtures. `first` go to the built-in root, which is
 * scanned first, so that the plugins in `then` load after them.
 */
function managerWith(workDir: string, plugins: { first: string[]; then?: string[] }, lifecycleTimeoutMs?: number) {
  const test = createTestManager(workDir, {
    thirdPartyFirst: plugins.first,
    thirdParty: plugins.then ?? [],
    ...(lifecycleTimeoutMs === undefined ? {} : { lifecycleTimeoutMs }),
  });
  const status = (id: string) => test.manager.list().find((entry) => entry.id === id);
  const errors = (message: string) => test.records.filter((record) => record.level === 'error' && record.msg === message);
  return { ...test, status, errors };
}

/** A promise and whether it has settled yet. */
function tracked<T>(work: Promise<T>): { work: Promise<T>; settled: () => boolean } {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { work, settled: () => settled };
}

/** `work`'s value, or a rejection naming `what` when it is still pending after a (real-time) deadline. */
async function settles<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what} is still pending`)), 3_000)));
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Lets the entry imports and the steps before the first onLoad run (real I/O, no clock). */
async function untilTimeline(entry: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(timeline() ?? []).includes(entry)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${entry} in the fixture timeline`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('PluginManager lifecycle timeouts', () => {
  const workDir = useProjectTempDir();
  beforeEach(() => {
    store['__fixtureTimeline'] = [];
    delete store['__onLoadGate'];
  });

  describe('when an onLoad never finishes', () => {
    it('reports the plugin failed at load with "onLoad timed out after 5 s", drops its tools, and loads the next plugin', async () => {
      const { manager, clock, status, errors, tools } = managerWith(workDir(), { first: ['onload-hangs'], then: ['good-echo'] }, 5_000);
      const loading = tracked(manager.loadAll());
      await untilTimeline('onLoad:onload-hangs');
      await clock.advance(4_999);
      expect(loading.settled()).toBe(false);
      expect(timeline()).not.toContain('onLoad:good-echo');

      await clock.advance(1);
      await settles(loading.work, 'loadAll()');
      expect(status('fixture.onload-hangs')).toMatchObject({ state: 'failed', stage: 'load', reason: 'onLoad timed out after 5 s' });
      expect(errors('工具插件加载失败，已从注册表移除')).toEqual([
        expect.objectContaining({ id: 'fixture.onload-hangs', stage: 'load', error: 'onLoad timed out after 5 s' }),
      ]);
      expect(tools.get('hanging_tool')).toBeUndefined();
      expect(status('fixture.good-echo')?.state).toBe('loaded');
      expect(manager.plugins().map((plugin) => plugin.id)).toEqual(['fixture.good-echo']);
    });

    it('waits 30 s by default', async () => {
      const { manager, clock, status } = managerWith(workDir(), { first: ['onload-hangs'] });
      const loading = tracked(manager.loadAll());
      await untilTimeline('onLoad:onload-hangs');
      await clock.advance(29_999);
      expect(loading.settled()).toBe(false);
      await clock.advance(1);
      await settles(loading.work, 'loadAll()');
      expect(status('fixture.onload-hangs')?.reason).toBe('onLoad timed out after 30 s');
    });

    it('runs its onUnload when the onLoad finishes after all, so it can let go of what it set up', async () => {
      let openGate!: () => void;
      store['__onLoadGate'] = new Promise<void>((resolve) => (openGate = resolve));
      const { manager, clock, status, records } = managerWith(workDir(), { first: ['onload-hangs'] }, 1_000);
      const loading = manager.loadAll();
      await untilTimeline('onLoad:onload-hangs');
      await clock.advance(1_000);
      await settles(loading, 'loadAll()');
      expect(timeline()).not.toContain('onUnload:onload-hangs');

      openGate();
      await clock.advance(0);
      expect(timeline().slice(-2)).toEqual(['onLoad finished:onload-hangs', 'onUnload:onload-hangs']);
      expect(records.some((record) => record.level === 'warn' && /finished onLoad after it was given up on/.test(record.msg))).toBe(true);
      expect(status('fixture.onload-hangs')?.state).toBe('failed');
      expect(manager.plugins()).toEqual([]);
    });

    it('ends at once when the host stops meanwhile (unloadAll): the pending plugin fails, the ones after it are not loaded', async () => {
      const { manager, status, tools } = managerWith(workDir(), { first: ['onload-hangs'], then: ['good-echo'] }, 30_000);
      const loading = tracked(manager.loadAll());
      await untilTimeline('onLoad:onload-hangs');
      await manager.unloadAll();
      expect(loading.settled()).toBe(true);
      expect(status('fixture.onload-hangs')).toMatchObject({ state: 'failed', stage: 'load', reason: 'the host stopped while onLoad was pending' });
      expect(status('fixture.good-echo')).toMatchObject({ state: 'skipped', stage: 'load', reason: 'the host stopped before its onLoad ran' });
      expect(timeline()).not.toContain('onLoad:good-echo');
      expect(tools.get('echo_text')).toBeUndefined();
      expect(manager.plugins()).toEqual([]);
    });
  });

  describe('when an onUnload never finishes', () => {
    it('unloadAll still finishes after the timeout, logs the step, and unloads the other plugins and every registration', async () => {
      const { manager, clock, errors, tools } = managerWith(workDir(), { first: ['onunload-hangs'], then: ['good-echo'] }, 2_000);
      await manager.loadAll();
      const echo = manager.get('fixture.good-echo') as unknown as { unloads: number };
      const unloading = tracked(manager.unloadAll());
      await clock.advance(0);
      // Newest first: good-echo has gone, the stubborn one is still pending.
      expect(echo.unloads).toBe(1);
      expect(timeline()).toContain('onUnload:onunload-hangs');
      expect(unloading.settled()).toBe(false);

      await clock.advance(2_000);
      await settles(unloading.work, 'unloadAll()');
      expect(errors('工具插件卸载失败')).toEqual([expect.objectContaining({ id: 'fixture.onunload-hangs', step: 'onUnload', error: 'onUnload timed out after 2 s' })]);
      expect(tools.get('stubborn_tool')).toBeUndefined();
      expect(manager.plugins()).toEqual([]);
    });
  });

  describe('PluginManager.reload', () => {
    it('goes on past an onUnload that never finishes and loads the plugin again', async () => {
      const { manager, clock, tools } = managerWith(workDir(), { first: ['onunload-hangs'] }, 2_000);
      await manager.loadAll();
      const reloading = tracked(manager.reload('fixture.onunload-hangs'));
      await clock.advance(1_999);
      expect(reloading.settled()).toBe(false);
      await clock.advance(1);
      await expect(settles(reloading.work, 'reload()')).resolves.toMatchObject({ state: 'loaded' });
      expect(timeline().filter((entry) => entry === 'onLoad:onunload-hangs')).toHaveLength(2);
      expect(tools.get('stubborn_tool')).toBeDefined();
    });

    it('reports an onLoad that never finishes as failed with the step, and resolves', async () => {
      const { manager, clock } = managerWith(workDir(), { first: ['onload-hangs'] }, 1_500);
      const loading = manager.loadAll();
      await untilTimeline('onLoad:onload-hangs');
      await clock.advance(1_500);
      await settles(loading, 'loadAll()');

      const reloading = tracked(manager.reload('fixture.onload-hangs'));
      while (timeline().filter((entry) => entry === 'onLoad:onload-hangs').length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      await clock.advance(1_499);
      expect(reloading.settled()).toBe(false);
      await clock.advance(1);
      await expect(settles(reloading.work, 'reload()')).resolves.toMatchObject({ state: 'failed', stage: 'load', reason: 'onLoad timed out after 1.5 s' });
      expect(manager.plugins()).toEqual([]);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// Issue 14, item 2: a plugin owns what it starts. Timeouts, intervals and effects made
// through ctx run on the host's clock and are undone, newest first, when it unloads or
// reloads; a second unload is harmless.

const store = globalThis as Record<string, unknown>;
const timeline = () => ((store['__fixtureTimeline'] ??= []) as string[]).splice(0);

describe('ctx.setTimeout, ctx.setInterval and ctx.effect', () => {
  const tempDir = useProjectTempDir();

  it('[issue 14.2] run on the host clock while the plugin is loaded, and stop when it unloads', async () => {
    const test = createTestManager(tempDir(), { thirdParty: ['uses-timers'] });
    timeline();
    await test.manager.loadAll();
    expect(timeline()).toEqual(['effect set up', 'holds: plugin fixture.uses-timers, tool timer_tool, tool fixture.uses-timers:tool:timer_tool, timeout 5000 ms, interval 1000 ms, interval 1000 ms, a socket of its own']);
    await test.clock.advance(3_000);
    expect(timeline()).toEqual(['tick', 'tick', 'tick']);
    expect(test.records.filter((record) => record.msg === 'a setInterval callback of the plugin failed')).toHaveLength(3);
    await test.clock.advance(2_000);
    expect(timeline()).toEqual(['tick', 'timeout', 'tick']);

    await test.manager.unloadAll();
    expect(timeline()).toEqual(['effect cleaned up']);
    await test.clock.advance(60_000);
    expect(timeline()).toEqual([]);
    expect(test.clock.pendingTimers).toBe(0);
    await test.manager.unloadAll(); // harmless
    expect(timeline()).toEqual([]);
  });

  it('[issue 14.2] are undone by a reload, and the reloaded plugin starts its own afresh', async () => {
    const test = createTestManager(tempDir(), { thirdParty: ['uses-timers'] });
    await test.manager.loadAll();
    timeline();
    await test.manager.reload('fixture.uses-timers');
    const events = timeline();
    expect(events[0]).toBe('effect cleaned up');
    expect(events).toContain('effect set up');
    await test.clock.advance(1_000);
    expect(timeline()).toEqual(['tick']); // one interval running, not two
  });
});

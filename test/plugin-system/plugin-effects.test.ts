import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('ctx.override', () => {
  const tempDir = useProjectTempDir();

  it('[issue 14.2] [issue 14.3] an override a plugin makes is its own: its class gets that plugin, and it is undone when the plugin is switched off', async () => {
    const work = tempDir();
    const source = (id: string, body: string, manifestExtra = '') => {
      const folder = join(work, 'sources', id);
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(folder, '_manifest.json'),
        `{ "manifest_version": 1, "id": "${id}", "plugin_type": "tool", "name": "${id}", "version": "1.0.0", "description": "test plugin ${id}", "host_application": { "min_version": "0.1.0", "max_version": "0.1.9" }${manifestExtra} }`,
      );
      writeFileSync(join(folder, 'plugin.ts'), body);
      return folder;
    };
    const base = source(
      'a.base',
      `import { ToolPlugin, service } from 'moonglass';
@service('greeting')
export class Greeting { greet(): string { return 'base'; } }
export class Base extends ToolPlugin { override components() { return [Greeting]; } }
`,
    );
    const overrider = source(
      'b.overrider',
      `import { ToolPlugin, TOKENS, inject, service } from 'moonglass';
@service('greeting')
class Louder {
  constructor(@inject(TOKENS.Plugin) private readonly plugin: { id: string }) {}
  greet(): string { return 'overridden by ' + this.plugin.id; }
}
export class Overrider extends ToolPlugin {
  override async onLoad(): Promise<void> { this.ctx.override('a.base:service:greeting', { useClass: Louder }); }
}
`,
      ', "dependencies": { "a.base": "*" }',
    );
    const test = createTestManager(work, { builtInFolders: [base, overrider] });
    await test.manager.loadAll();
    const greet = () => test.registry.get<{ greet(): string }>('a.base:service:greeting')!.greet();
    expect(greet()).toBe('overridden by b.overrider');
    writeFileSync(join(test.roots.builtIn, 'b.overrider', 'config.toml'), '[plugin]\nenabled = false\n');
    await test.manager.reload('b.overrider');
    expect(greet()).toBe('base');
  });
});

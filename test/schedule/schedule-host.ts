import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHost, type Host } from '../../src/app/create-host.js';
import type { LogRecord } from '../../src/kernel/logger/memory-logger.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import type { PluginContext } from '../../src/plugin-system/plugin-context.js';

export const PROBE_ID = 'schedule_probe';

const store = globalThis as Record<string, unknown>;

/**
 * What the probe plugin does in `onLoad`: the test's function gets the plugin's real `ctx`
 * (from the host that loaded it), so a test calls `ctx.schedule` as a plugin would.
 */
export function onProbeLoad(setup: ((ctx: PluginContext) => void) | undefined): void {
  store['__scheduleProbeSetup'] = setup;
}

/** Writes the probe plugin into `<work>/plugins/schedule_probe` (inside the project: `import 'moonglass'` resolves). */
export function writeProbePlugin(work: string): string {
  const root = join(work, 'plugins');
  const folder = join(root, PROBE_ID);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, '_manifest.json'),
    JSON.stringify({ manifest_version: 1, id: PROBE_ID, plugin_type: 'tool', name: PROBE_ID, version: '1.0.0', description: 'test plugin: calls the test’s setup with its ctx in onLoad' }),
  );
  writeFileSync(
    join(folder, 'plugin.ts'),
    `import { ToolPlugin } from 'moonglass';
export class ScheduleProbe extends ToolPlugin {
  override async onLoad(): Promise<void> {
    const setup = (globalThis as Record<string, unknown>)['__scheduleProbeSetup'] as ((ctx: unknown) => void) | undefined;
    setup?.(this.ctx);
  }
}
`,
  );
  return root;
}

export interface ScheduleHost {
  host: Host;
  clock: ManualClock;
  logs: LogRecord[];
  /** Moves the manual clock by `ms` in steps, letting work between timers settle. */
  advance(ms: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A started host with the probe plugin, a real SQLite file in `<work>/data` (a second host on
 * the same `work` is the same bot after a restart), `bot.toml [bot] timezone` and a manual
 * clock starting at `startMs`.
 */
export async function startScheduleHost(work: string, options: { startMs: number; timeZone?: string }): Promise<ScheduleHost> {
  const root = writeProbePlugin(work);
  const clock = new ManualClock(options.startMs);
  const { logger, records } = createMemoryLogger();
  const host = createHost({
    logger,
    clock,
    appConfig: {},
    botConfig: { bot: { timezone: options.timeZone ?? 'UTC' } },
    configDir: join(work, 'config'),
    dataDir: join(work, 'data'),
    database: 'file',
    pluginRoots: [{ path: root, builtIn: true }],
  });
  await host.start();
  return {
    host,
    clock,
    logs: records,
    async advance(ms) {
      const step = 10 * 60_000;
      for (let elapsed = 0; elapsed < ms; elapsed += step) await clock.advance(Math.min(step, ms - elapsed));
      await clock.advance(0);
    },
    async stop() {
      // Stopping gives work in flight a grace period on the host's clock: make it pass.
      let stopped = false;
      const stopping = host.stop().finally(() => {
        stopped = true;
      });
      while (!stopped) {
        await clock.advance(500);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await stopping;
    },
  };
}

import 'reflect-metadata';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHost, defaultPluginRoots } from '../src/app/create-host.js';
import { createLogger } from '../src/kernel/logger/create-logger.js';
import { ManualClock } from '../src/kernel/time/manual-clock.js';
import { printGoal } from './harness.js';
import { CountingSink } from './support/counting-sink.js';
import { benchScratch } from './support/scratch.js';

const CONVERSATIONS = 4_000;
const IDLE_EVICT_SECONDS = 600;

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench does)');
  for (let round = 0; round < 4; round += 1) gc();
  return process.memoryUsage().heapUsed;
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

/**
 * Issue 13, item 9: idle conversations leave memory. A real host (NDFC, SQLite file, the
 * demo model) on a manual clock opens 4,000 private conversations, one turn each; the clock
 * then moves past `idle_evict_seconds` and the heap after GC is compared with the heap
 * measured in the same run before the conversations were opened. Goal: within 2 MiB.
 */
export async function benchIdleMemory(): Promise<boolean> {
  const scratch = benchScratch('idle-');
  const plugins = join(scratch, 'plugins');
  mkdirSync(plugins, { recursive: true });
  const ndfc = join(plugins, 'neo_default_chatter');
  cpSync(join(defaultPluginRoots()[0]!.path, 'neo_default_chatter'), ndfc, { recursive: true, filter: (source) => !source.endsWith('config.toml') });
  writeFileSync(join(ndfc, 'config.toml'), '[plugin]\ntyping_delay_per_char = 0\n');
  const clock = new ManualClock(Date.now());
  const host = createHost({
    logger: createLogger({ level: 'error', format: 'json' }),
    appConfig: { chat: { idle_evict_seconds: IDLE_EVICT_SECONDS } } as never,
    dataDir: join(scratch, 'data'),
    pluginRoots: [{ path: plugins, builtIn: true }],
    botConfig: { chat: { default_chatter: 'neo_default_chatter:chatter:neo_default_chatter', message_buffer_seconds: 0 } },
    clock,
  });
  const sink = new CountingSink();
  host.setOutboundSink(sink);
  await host.start();
  const converse = async (from: number, count: number): Promise<void> => {
    for (let user = from; user < from + count; user += 1) {
      const expected = sink.count + 1;
      await host.receive({ platform: 'bench', message_id: `m-${user}`, chat_type: 'private', sender: { id: String(user), name: `user ${user}` }, content: `你好，我是 ${user}` });
      for (let spins = 0; sink.count < expected; spins += 1) {
        if (spins > 1_000) throw new Error(`conversation ${user} got no reply`);
        await clock.advance(1);
      }
    }
  };
  const idle = async (): Promise<void> => {
    // Past the idle time, in sweeps' steps, so every sweep on the way runs.
    for (let elapsed = 0; elapsed <= IDLE_EVICT_SECONDS * 1000 + 120_000; elapsed += 30_000) await clock.advance(30_000);
  };
  try {
    await converse(0, 200); // warm up every code path, then let those go too
    await idle();
    const baseline = heapAfterGc();
    await converse(1_000_000, CONVERSATIONS);
    const open = heapAfterGc();
    const live = host.chat.streams.activeStreamIds().length;
    await idle();
    const evicted = heapAfterGc();
    console.log(`\nIdle conversations: ${CONVERSATIONS.toLocaleString('en')} conversations, one turn each, then ${IDLE_EVICT_SECONDS} s of quiet on the clock`);
    console.log(`  heap after GC: baseline ${mib(baseline)}, with them open ${mib(open)} (+${((open - baseline) / CONVERSATIONS / 1024).toFixed(1)} KB each, ${live} streams live)`);
    console.log(`  after the idle sweep: ${mib(evicted)} (${evicted - baseline >= 0 ? '+' : ''}${mib(evicted - baseline)} against the baseline; ${host.chat.streams.activeStreamIds().length} streams live)`);
    return printGoal('heap growth after eviction / 2 MiB', Math.max(0, evicted - baseline) / (2 * 1024 * 1024), 1);
  } finally {
    await host.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchIdleMemory();

import 'reflect-metadata';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost, defaultPluginRoots } from '../src/app/create-host.js';
import { CountingSink } from './support/counting-sink.js';
import { createLogger } from '../src/kernel/logger/create-logger.js';
import { printGoal } from './harness.js';


/** Full NDFC turns (preprocess, prompts, model, send_text, every seam published) with the instant demo model. */
export async function benchNdfcTurn(): Promise<boolean> {
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const root = join(fileURLToPath(new URL('./', import.meta.url)), 'generated-plugins', 'ndfc');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const target = join(root, 'neo_default_chatter');
  cpSync(join(defaultPluginRoots()[0]!.path, 'neo_default_chatter'), target, { recursive: true, filter: (source) => !source.endsWith('config.toml') });
  // No typing delay: the bench measures the framework, not a simulated typist.
  writeFileSync(join(target, 'config.toml'), '[plugin]\ntyping_delay_per_char = 0\n');
  const host = createHost({
    logger: createLogger({ level: 'error', format: 'json' }),
    appConfig: {},
    database: 'memory',
    pluginRoots: [{ path: root, builtIn: true }],
    botConfig: { chat: { default_chatter: 'neo_default_chatter:chatter:neo_default_chatter', message_buffer_seconds: 0, step_timeout_seconds: 90 } },
  });
  const sink = new CountingSink();
  host.setOutboundSink(sink);
  await host.start();
  // Time spent inside publish (all events: NDFC seams and system events).
  let publishNs = 0n;
  let publishes = 0;
  const publish = host.bus.publish.bind(host.bus);
  host.bus.publish = ((name: string, params: Record<string, unknown>) => {
    const started = process.hrtime.bigint();
    publishes += 1;
    return publish(name, params as never).finally(() => {
      publishNs += process.hrtime.bigint() - started;
    });
  }) as typeof host.bus.publish;
  const envelope = (id: number) => ({ platform: 'bench', message_id: String(id), chat_type: 'private' as const, sender: { id: '1', name: 'u' }, content: `hello ${id}` });
  try {
    for (let index = 0; index < 100; index += 1) {
      const next = sink.count + 1;
      await host.receive(envelope(index));
      await sink.until(next);
    }
    publishNs = 0n;
    publishes = 0;
    const turns = 1_000;
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let index = 100; index < 100 + turns; index += 1) {
      const next = sink.count + 1;
      await host.receive(envelope(index));
      await sink.until(next);
    }
    const elapsedNs = Number(process.hrtime.bigint() - start);
    const cpu = process.cpuUsage(cpuStart);
    const cpuMsPerTurn = (cpu.user + cpu.system) / 1000 / turns;
    const turnsPerSecond = (turns / elapsedNs) * 1e9;
    console.log('\nNDFC: full sessions (private chat, instant demo model), one stream, turn after turn');
    console.log(`  ${turnsPerSecond.toFixed(0)} turns/s, ${(elapsedNs / turns / 1e6).toFixed(2)} ms per turn (${cpuMsPerTurn.toFixed(2)} ms of CPU)`);
    console.log(`  ${(publishes / turns).toFixed(0)} events per turn; inside publish (including the handlers' own work): ${((Number(publishNs) / elapsedNs) * 100).toFixed(0)}% of the time`);
    return printGoal('1,000 turns/s: 1000 / measured', 1000 / turnsPerSecond, 1);
  } finally {
    await host.stop();
    clearInterval(keepAlive);
    rmSync(root, { recursive: true, force: true });
  }
}

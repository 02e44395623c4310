// Child process of ndfc-turn.bench.ts: full NDFC turns on the moonglass tree given (this one,
// or a checkout of an earlier commit), printed as JSON. One tree per process, so both builds
// run the same way.
import 'reflect-metadata';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CountingSink } from './support/counting-sink.js';
import { ndfcBenchHostOptions, prepareNdfcRoot } from './support/ndfc-bench-host.js';

const [tree, turnsText] = process.argv.slice(2) as [string, string];
const turns = Number(turnsText);
const { createHost } = (await import(pathToFileURL(join(tree, 'src/app/create-host.js')).href)) as typeof import('../src/app/create-host.js');
const { createLogger } = (await import(pathToFileURL(join(tree, 'src/kernel/logger/create-logger.js')).href)) as typeof import('../src/kernel/logger/create-logger.js');

// Under the tree, so the copy's `import 'moonglass'` resolves to that tree's own source.
const root = join(tree, '.bench-temp', `ndfc-turn-${process.pid}`);
prepareNdfcRoot(join(tree, 'src/plugins/built_in'), root);
const keepAlive = setInterval(() => undefined, 1 << 30);
const host = createHost(ndfcBenchHostOptions(root, createLogger({ level: 'error', format: 'json' })));
const sink = new CountingSink();
host.setOutboundSink(sink);
await host.start();
const envelope = (id: number) => ({ platform: 'bench', message_id: String(id), chat_type: 'private' as const, sender: { id: '1', name: 'u' }, content: `hello ${id}` });
const turn = async (id: number) => {
  const next = sink.count + 1;
  await host.receive(envelope(id));
  await sink.until(next);
};
try {
  for (let index = 0; index < 200; index += 1) await turn(index);
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let index = 200; index < 200 + turns; index += 1) await turn(index);
  const elapsedMs = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  process.stdout.write(`${JSON.stringify({ msPerTurn: elapsedMs / turns, cpuMsPerTurn: (cpu.user + cpu.system) / 1000 / turns })}\n`);
} finally {
  await host.stop();
  clearInterval(keepAlive);
  rmSync(root, { recursive: true, force: true });
}

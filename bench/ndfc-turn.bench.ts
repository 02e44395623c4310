import 'reflect-metadata';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost, defaultPluginRoots } from '../src/app/create-host.js';
import { CountingSink } from './support/counting-sink.js';
import { createLogger } from '../src/kernel/logger/create-logger.js';
import { printGoal } from './harness.js';
import { ndfcBenchHostOptions, prepareNdfcRoot } from './support/ndfc-bench-host.js';
import { execFileSync } from 'node:child_process';

const PROJECT = fileURLToPath(new URL('../', import.meta.url));
/**
 * The build a turn is compared with: the commit before the host read its services through
 * the core tokens (issue 14). MOONGLASS_BENCH_BASELINE_REV picks another.
 */
const BASELINE_REV = process.env['MOONGLASS_BENCH_BASELINE_REV'] ?? 'b38a5ba';

/** A checkout of `rev` under .bench-temp/, sharing this tree's node_modules. */
function baselineTree(rev: string): string {
  const dir = join(PROJECT, '.bench-temp', `baseline-${rev}`);
  if (existsSync(join(dir, 'package.json'))) return dir;
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${PROJECT}" archive "${rev}" | tar -x -C "${dir}"`]);
  symlinkSync(join(PROJECT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

function childTurns(tree: string, turns: number): { msPerTurn: number; cpuMsPerTurn: number } {
  const output = execFileSync(
    process.execPath,
    ['--conditions=source', '--import', join(PROJECT, 'src/register-typescript.mjs'), join(PROJECT, 'bench/ndfc-turn-child.ts'), tree, String(turns)],
    { cwd: tree, encoding: 'utf8' },
  );
  return JSON.parse(output.trim().split('\n').at(-1)!) as { msPerTurn: number; cpuMsPerTurn: number };
}

/**
 * A full NDFC turn on this build against the same turn on the baseline build, each in its own
 * process, interleaved five times; medians compared. Goal: at most 1.1x.
 */
export function benchNdfcTurnAgainstBaseline(): boolean {
  let baseline: string;
  try {
    baseline = baselineTree(BASELINE_REV);
  } catch (error) {
    console.log(`\nNDFC turn against ${BASELINE_REV}: no baseline (${String(error).split('\n')[0]}); skipped`);
    return true;
  }
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    ours.push(childTurns(PROJECT, 1_000).msPerTurn);
    theirs.push(childTurns(baseline, 1_000).msPerTurn);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`\nNDFC turn, this build against ${BASELINE_REV} (before the core-token facades), 5 interleaved runs of 1,000 turns each`);
  console.log(`  this build: ${median(ours).toFixed(3)} ms per turn; ${BASELINE_REV}: ${median(theirs).toFixed(3)} ms per turn`);
  return printGoal(`NDFC turn / ${BASELINE_REV}'s`, median(ours) / median(theirs), 1.1);
}


/** Full NDFC turns (preprocess, prompts, model, send_text, every seam published) with the instant demo model. */
export async function benchNdfcTurn(): Promise<boolean> {
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const root = join(fileURLToPath(new URL('./', import.meta.url)), 'generated-plugins', 'ndfc');
  prepareNdfcRoot(defaultPluginRoots()[0]!.path, root);
  const host = createHost(ndfcBenchHostOptions(root, createLogger({ level: 'error', format: 'json' })));
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

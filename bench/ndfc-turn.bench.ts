import 'reflect-metadata';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost, defaultPluginRoots } from '../src/app/create-host.js';
import { CountingSink } from './support/counting-sink.js';
import { createLogger } from '../src/kernel/logger/create-logger.js';
import { describeSamples, judgeGoal, judgeRatio, skipGoal, spreadOf } from './support/goal.js';
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

const ROUNDS = 5;

/**
 * A full NDFC turn on this build against the same turn on the baseline build, each in its own
 * process, interleaved over five rounds (the order alternating); judged on the median of the
 * per-round ratios. Goal: at most 1.1x.
 */
export function benchNdfcTurnAgainstBaseline(): boolean {
  const label = 'NDFC turn, this build';
  let baseline: string;
  try {
    baseline = baselineTree(BASELINE_REV);
  } catch (error) {
    console.log(`\nNDFC turn against ${BASELINE_REV}: no baseline`);
    return skipGoal(label, `no baseline (${String(error).split('\n')[0]})`);
  }
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) {
      ours.push(childTurns(PROJECT, 1_000).msPerTurn);
      theirs.push(childTurns(baseline, 1_000).msPerTurn);
    } else {
      theirs.push(childTurns(baseline, 1_000).msPerTurn);
      ours.push(childTurns(PROJECT, 1_000).msPerTurn);
    }
  }
  console.log(`\nNDFC turn, this build against ${BASELINE_REV} (before the core-token facades), ${ROUNDS} interleaved runs of 1,000 turns each`);
  console.log(`  this build: ${describeSamples(ours, ' ms per turn')}`);
  console.log(`  ${BASELINE_REV}: ${describeSamples(theirs, ' ms per turn')}`);
  return judgeRatio({ label, measured: ours, baseline: theirs, of: `${BASELINE_REV}'s`, atMost: 1.1 });
}

/** Turns per timed round; rounds alternate between plain turns (judged) and turns with publish timed. */
const TURNS_PER_ROUND = 200;
const TURN_ROUNDS = 8;

/**
 * Full NDFC turns (preprocess, prompts, model, send_text, every seam published) with the
 * instant demo model, one stream, turn after turn, on one core (the bench's own thread).
 * Goal (issue 20): at least 2,000 turns/s, judged on the median of the plain rounds. Rounds
 * that time every publish (for the share of a turn spent in the bus) are interleaved with
 * them and not judged, since the timing is work of its own.
 */
export async function benchNdfcTurn(): Promise<boolean> {
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const root = join(fileURLToPath(new URL('./', import.meta.url)), 'generated-plugins', 'ndfc');
  prepareNdfcRoot(defaultPluginRoots()[0]!.path, root);
  const host = createHost(ndfcBenchHostOptions(root, createLogger({ level: 'error', format: 'json' })));
  const sink = new CountingSink();
  host.setOutboundSink(sink);
  await host.start();
  // Time spent inside publish (all events: NDFC seams and system events), in the timed rounds only.
  let timing = false;
  let publishNs = 0n;
  let publishes = 0;
  const publish = host.bus.publish.bind(host.bus);
  host.bus.publish = ((name: string, params: Record<string, unknown>) => {
    if (!timing) return publish(name, params as never);
    const started = process.hrtime.bigint();
    publishes += 1;
    return publish(name, params as never).finally(() => {
      publishNs += process.hrtime.bigint() - started;
    });
  }) as typeof host.bus.publish;
  const envelope = (id: number) => ({ platform: 'bench', message_id: String(id), chat_type: 'private' as const, sender: { id: '1', name: 'u' }, content: `hello ${id}` });
  let nextId = 0;
  const runTurns = async (turns: number): Promise<{ elapsedNs: number; cpuMs: number }> => {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let index = 0; index < turns; index += 1) {
      const next = sink.count + 1;
      await host.receive(envelope(nextId));
      nextId += 1;
      await sink.until(next);
    }
    const elapsedNs = Number(process.hrtime.bigint() - start);
    const cpu = process.cpuUsage(cpuStart);
    return { elapsedNs, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
  try {
    await runTurns(100); // warm-up
    const turnsPerSecond: number[] = [];
    const cpuMsPerTurn: number[] = [];
    let timedElapsedNs = 0;
    for (let round = 0; round < TURN_ROUNDS; round += 1) {
      for (const timed of round % 2 === 0 ? [false, true] : [true, false]) {
        timing = timed;
        const { elapsedNs, cpuMs } = await runTurns(TURNS_PER_ROUND);
        timing = false;
        if (timed) {
          timedElapsedNs += elapsedNs;
        } else {
          turnsPerSecond.push((TURNS_PER_ROUND / elapsedNs) * 1e9);
          cpuMsPerTurn.push(cpuMs / TURNS_PER_ROUND);
        }
      }
    }
    const perTurnMs = 1000 / spreadOf(turnsPerSecond).median;
    console.log(`\nNDFC: full sessions (private chat, instant demo model), one stream, turn after turn, ${TURN_ROUNDS} rounds of ${TURNS_PER_ROUND} turns`);
    console.log(`  ${perTurnMs.toFixed(2)} ms per turn (${spreadOf(cpuMsPerTurn).median.toFixed(2)} ms of CPU), medians of the plain rounds`);
    console.log(
      `  ${(publishes / (TURN_ROUNDS * TURNS_PER_ROUND)).toFixed(0)} events per turn; inside publish (including the handlers' own work): ` +
        `${((Number(publishNs) / timedElapsedNs) * 100).toFixed(0)}% of the time (interleaved rounds with every publish timed)`,
    );
    return judgeGoal({ label: 'NDFC turns, one stream, instant model, one core', samples: turnsPerSecond, comparison: '>=', limit: 2_000, unit: ' turns/s' });
  } finally {
    await host.stop();
    clearInterval(keepAlive);
    rmSync(root, { recursive: true, force: true });
  }
}

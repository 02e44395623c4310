import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type AnswerCheck, checkAnswers, converse, type LoadOptions, summarizeLatencies } from './support/load-driver.js';
import { installKoishi } from './support/peers/koishi-install.js';
import { type MoonglassBuild, prepareMoonglass } from './support/peers/moonglass-package.js';
import { cpuSecondsBetween, TreeMemorySampler, type TreeProcess, treeCpuSeconds } from './support/peers/process-tree.js';
import { startTarget, TARGET_TITLES, type TargetName, type TargetSetup } from './support/peers/targets.js';
import type { StoredCounts } from './support/bench-bot.js';
import { ROOT } from './support/scratch.js';

// Peers: moonglass against Koishi under one OneBot load driver (bench/support/load-driver.ts,
// the driver of bench/load.bench.ts): one reverse-WebSocket connection from the loopback peer
// (test/support/onebot-peer.ts, connecting as NapCat does), C users talking at once in private
// chat, 20 messages each, each user sending its next message only once the previous one was
// answered. Every answer must be `（演示模型）收到：` + the message, exactly once. Each run
// starts with a warm-up wave: the same users send the same load once, unmeasured (other texts
// and message ids), so the numbers are those of a bot that has been running, not of a process
// whose hot path V8 is still compiling (20 messages at C=100 took ~1.4 s, a third of it
// warm-up, which favoured the target with the least code). Peak memory includes the warm-up.
//
// Targets, each a fresh process (tree) per run:
// - moonglass as an installed package runs: `node dist/app/main.js start` (compiled JavaScript,
//   no TypeScript loader) from a copy of dist/ (built first when older than src/), with
//   BenchBot's scratch config: onebot_v11 reverse, message buffer 0, NDFC typing delay 0,
//   admin off, the instant demo model; it stores every message. The adapter runs in a
//   thread of the host (the default); a second target forks it a process of its own
//   (`isolation = "process"`), and both processes are measured. The goals are judged on the
//   default.
// - Koishi 4.18 (installed by this bench into .bench-temp/peers/koishi/, outside the project's
//   dependencies, at the exact versions of support/peers/koishi-install.ts): the http and
//   server services, koishi-plugin-adapter-onebot 6.9 in `ws-reverse` protocol, and a
//   middleware answering each private message with the demo model's text
//   (support/peers/koishi-bot.mjs). Once without a database, once with Koishi's SQLite
//   database (the user of every message is then read, created on first sight and written back).
// - A bare `ws` endpoint answering every message at once (the transport floor).
//
// Measured per run: throughput (answers/s, from the first push to the last answer), reply
// latency p50/p95/p99 (first push to first answer), peak RSS (VmHWM) of every process of the
// target and, sampled every 250 ms, the peak of their summed VmRSS; CPU seconds (utime +
// stime of all its processes, /proc/<pid>/stat) per 1,000 answers over the load; the delivery
// check (each message answered once, none missing, no strays; moonglass: each stored once).
//
// Interleaved: at each level, every round runs all four targets one after the other, the
// order rotated each round, so that a slow minute of a shared machine falls on all of them;
// the table shows the median over rounds and the spread (min–max). Goals (issue 20) are judged
// on the medians; a goal that misses is reported, and the exit code is non-zero only when a
// delivery check failed. Full results: .bench-temp/peers/last.json.
//
// MOONGLASS_PEERS_LEVELS=1,100,1000 picks the levels (concurrent users), MOONGLASS_PEERS_TARGETS
// (say moonglass,koishi) the targets, MOONGLASS_PEERS_ROUNDS the rounds (default 3; a whole
// run took ~15 minutes on 2 shared cores, C=1000 most of it), MOONGLASS_PEERS_MESSAGES the
// messages per user (20), MOONGLASS_PEERS_WARMUP=0 measures without the warm-up wave.

const TARGETS: readonly TargetName[] = ['moonglass', 'moonglass-process', 'koishi', 'koishi-sqlite', 'bare-ws'];
/** Messages each user sends (MOONGLASS_PEERS_MESSAGES; default 20). */
const MESSAGES_PER_USER = envPositiveInteger('MOONGLASS_PEERS_MESSAGES', 20);
const DEFAULT_LEVELS = [1, 100, 1000];
const DEFAULT_ROUNDS = 3;
const RESULTS_FILE = join(ROOT, '.bench-temp', 'peers', 'last.json');
const RUN_TIMEOUT_MS = 900_000;

interface RunResult {
  target: TargetName;
  users: number;
  round: number;
  /** Why the run failed before its checks (start failure, timeout); then the numbers are absent. */
  error?: string;
  answersPerSecond?: number;
  latencyMs?: { p50: number; p95: number; p99: number; max: number };
  /** Each process with its VmHWM and the CPU seconds it used over the load. */
  processes?: (TreeProcess & { cpuSeconds: number })[];
  /** Sum of the processes' VmHWM, MiB. */
  peakRssSumMiB?: number;
  /** Largest sum of the processes' VmRSS seen by the 250 ms sampler, MiB. */
  sampledPeakRssSumMiB?: number;
  cpuSecondsPer1000Answers?: number;
  /** CPU seconds over the load's wall seconds: how many cores the target kept busy (below 1 on a free core: it waits on something). */
  cpuCores?: number;
  answers?: AnswerCheck;
  stored?: StoredCounts;
  /** Every message answered exactly once, none missing, no strays; moonglass: each stored once too. */
  deliveryPassed: boolean;
}

function envList(name: string, fallback: readonly number[]): number[] {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') return [...fallback];
  const list = value.split(',').map((part) => Number(part.trim()));
  if (list.some((entry) => !Number.isInteger(entry) || entry <= 0)) throw new Error(`${name}: expected positive integers separated by commas, got "${value}"`);
  return list;
}

/** The positive integer in environment variable `name`, or `fallback` when it is unset or empty. */
function envPositiveInteger(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new Error(`${name}: expected a positive integer, got "${value}"`);
  return number;
}

/** MOONGLASS_PEERS_WARMUP=0 measures from the first message (a warm-up wave by default). */
const WARM_UP = process.env['MOONGLASS_PEERS_WARMUP'] !== '0';

/** MOONGLASS_PEERS_TARGETS=moonglass,koishi runs only those (all by default). */
function targetsFor(): TargetName[] {
  const value = process.env['MOONGLASS_PEERS_TARGETS'];
  if (value === undefined || value.trim() === '') return [...TARGETS];
  const picked = value.split(',').map((part) => part.trim());
  const unknown = picked.filter((name) => !(TARGETS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`MOONGLASS_PEERS_TARGETS: unknown target(s) ${unknown.join(', ')}; expected some of ${TARGETS.join(', ')}`);
  return picked as TargetName[];
}

function roundsFor(): number {
  return envPositiveInteger('MOONGLASS_PEERS_ROUNDS', DEFAULT_ROUNDS);
}

async function runOnce(target: TargetName, users: number, round: number, setup: TargetSetup): Promise<RunResult> {
  const options: LoadOptions = { streams: users, messagesPerStream: MESSAGES_PER_USER };
  const total = users * MESSAGES_PER_USER;
  let started;
  try {
    started = await startTarget(target, setup);
  } catch (error) {
    return { target, users, round, error: `start: ${(error as Error).message}`, deliveryPassed: false };
  }
  try {
    const sampler = new TreeMemorySampler(started.rootPid);
    if (WARM_UP) {
      // The warm-up wave (see the top of this file): answered exactly once, not measured.
      try {
        const warmUp = await converse(started.peer, { ...options, wave: 1 }, RUN_TIMEOUT_MS);
        if (!checkAnswers(warmUp, total).passed) throw new Error('the warm-up wave was not answered exactly once');
      } catch (error) {
        sampler.stop();
        return { target, users, round, error: `warm-up: ${(error as Error).message}`, deliveryPassed: false };
      }
    }
    const cpuBefore = treeCpuSeconds(started.rootPid);
    let cpuAfter: Map<number, number> | undefined;
    let turns;
    try {
      turns = await converse(started.peer, options, RUN_TIMEOUT_MS, undefined, { onAllAnswered: () => (cpuAfter = treeCpuSeconds(started.rootPid)) });
    } catch (error) {
      sampler.stop();
      return { target, users, round, error: (error as Error).message, deliveryPassed: false };
    }
    const processes = sampler.stop().map((entry) => ({ ...entry, cpuSeconds: (cpuAfter!.get(entry.pid) ?? 0) - (cpuBefore.get(entry.pid) ?? 0) }));
    await started.stop();
    const stored = started.storedCounts();
    const answers = checkAnswers(turns, total);
    const storedPassed = stored === undefined || (stored.inbound === total * (WARM_UP ? 2 : 1) && stored.inboundTwice === 0);
    const cpuSeconds = cpuSecondsBetween(cpuBefore, cpuAfter!);
    return {
      target,
      users,
      round,
      answersPerSecond: (total / turns.wallMs) * 1000,
      latencyMs: summarizeLatencies(turns.latenciesMs),
      processes,
      peakRssSumMiB: processes.reduce((sum, entry) => sum + entry.peakMiB, 0),
      sampledPeakRssSumMiB: sampler.peakSumMiB,
      cpuSecondsPer1000Answers: (cpuSeconds / total) * 1000,
      cpuCores: cpuSeconds / (turns.wallMs / 1000),
      answers,
      ...(stored === undefined ? {} : { stored }),
      deliveryPassed: answers.passed && storedPassed,
    };
  } finally {
    await started.dispose();
  }
}

// ---- summaries ----

interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(values: readonly number[]): Spread | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)! };
}

interface TargetSummary {
  target: TargetName;
  runs: number;
  failedRuns: number;
  answersPerSecond?: Spread;
  p50?: Spread;
  p95?: Spread;
  p99?: Spread;
  peakRssSumMiB?: Spread;
  sampledPeakRssSumMiB?: Spread;
  /** Median VmHWM per process label (`main.js`, `adapter-process.js`, …). */
  processPeakMiB: Record<string, Spread>;
  /** Median CPU seconds per 1,000 answers per process label. */
  processCpuSecondsPer1000: Record<string, Spread>;
  cpuSecondsPer1000Answers?: Spread;
  cpuCores?: Spread;
  deliveryPassed: boolean;
}

function summarize(target: TargetName, runs: readonly RunResult[]): TargetSummary {
  const ok = runs.filter((run) => run.error === undefined);
  const pick = (value: (run: RunResult) => number | undefined) => spread(ok.map(value).filter((entry): entry is number => entry !== undefined));
  const labels = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  for (const run of ok) {
    for (const entry of run.processes ?? []) {
      labels.set(entry.label, [...(labels.get(entry.label) ?? []), entry.peakMiB]);
      cpu.set(entry.label, [...(cpu.get(entry.label) ?? []), (entry.cpuSeconds / (run.users * MESSAGES_PER_USER)) * 1000]);
    }
  }
  const summary: TargetSummary = {
    target,
    runs: runs.length,
    failedRuns: runs.length - ok.length,
    processPeakMiB: Object.fromEntries([...labels].map(([label, values]) => [label, spread(values)!])),
    processCpuSecondsPer1000: Object.fromEntries([...cpu].map(([label, values]) => [label, spread(values)!])),
    deliveryPassed: runs.length > 0 && runs.every((run) => run.deliveryPassed),
  };
  const fields = {
    answersPerSecond: pick((run) => run.answersPerSecond),
    p50: pick((run) => run.latencyMs?.p50),
    p95: pick((run) => run.latencyMs?.p95),
    p99: pick((run) => run.latencyMs?.p99),
    peakRssSumMiB: pick((run) => run.peakRssSumMiB),
    sampledPeakRssSumMiB: pick((run) => run.sampledPeakRssSumMiB),
    cpuSecondsPer1000Answers: pick((run) => run.cpuSecondsPer1000Answers),
    cpuCores: pick((run) => run.cpuCores),
  };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) Object.assign(summary, { [key]: value });
  return summary;
}

const digits = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const cell = (value: Spread | undefined) => (value === undefined ? 'n/a' : `${digits(value.median)} (${digits(value.min)}–${digits(value.max)})`);

function printLevel(users: number, rounds: number, summaries: readonly TargetSummary[]): void {
  const total = users * MESSAGES_PER_USER;
  console.log(`\nC=${users}: ${users} private conversation${users === 1 ? '' : 's'} x ${MESSAGES_PER_USER} messages (${total} answers${WARM_UP ? ', after a warm-up wave of as many' : ', no warm-up'}), median (min–max) of ${rounds} interleaved round${rounds === 1 ? '' : 's'}`);
  const header = ['target', 'answers/s', 'p50 ms', 'p95 ms', 'p99 ms', 'peak RSS MiB', 'sampled MiB', 'CPU s/1000', 'CPU cores', 'delivery'];
  const rows = summaries.map((summary) => [
    TARGET_TITLES[summary.target],
    cell(summary.answersPerSecond),
    cell(summary.p50),
    cell(summary.p95),
    cell(summary.p99),
    cell(summary.peakRssSumMiB),
    cell(summary.sampledPeakRssSumMiB),
    cell(summary.cpuSecondsPer1000Answers),
    cell(summary.cpuCores),
    summary.deliveryPassed ? 'ok' : `FAILED${summary.failedRuns > 0 ? ` (${summary.failedRuns} run${summary.failedRuns === 1 ? '' : 's'} broke)` : ''}`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (row: readonly string[]) => `  ${row.map((entry, column) => entry.padEnd(widths[column]!)).join('  ')}`.trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log("  peak RSS: sum of every process's VmHWM; sampled: largest sum of their VmRSS every 250 ms; CPU cores: CPU s / wall s of the load");
  for (const summary of summaries) {
    const labels = Object.entries(summary.processPeakMiB);
    if (labels.length > 1) {
      const each = labels.map(([label, value]) => `${label} ${cell(value)} MiB, ${cell(summary.processCpuSecondsPer1000[label])} CPU s/1000`);
      console.log(`  ${TARGET_TITLES[summary.target]} processes (VmHWM, CPU): ${each.join('; ')}`);
    }
  }
  const moonglass = summaries.find((summary) => summary.target === 'moonglass');
  const koishi = summaries.find((summary) => summary.target === 'koishi');
  if (moonglass === undefined || koishi === undefined) return;
  const ratio = (a: Spread | undefined, b: Spread | undefined) => (a === undefined || b === undefined ? 'n/a' : `${(a.median / b.median).toFixed(2)}x`);
  console.log(`  moonglass / Koishi no DB: throughput ${ratio(moonglass.answersPerSecond, koishi.answersPerSecond)}, p99 ${ratio(moonglass.p99, koishi.p99)}, peak RSS ${ratio(moonglass.peakRssSumMiB, koishi.peakRssSumMiB)}, CPU per answer ${ratio(moonglass.cpuSecondsPer1000Answers, koishi.cpuSecondsPer1000Answers)}`);
  const sqlite = summaries.find((summary) => summary.target === 'koishi-sqlite');
  const bare = summaries.find((summary) => summary.target === 'bare-ws');
  console.log(`  moonglass throughput / Koishi + SQLite ${ratio(moonglass.answersPerSecond, sqlite?.answersPerSecond)}, / bare ws ${ratio(moonglass.answersPerSecond, bare?.answersPerSecond)}`);
  const forked = summaries.find((summary) => summary.target === 'moonglass-process');
  if (forked !== undefined) console.log(`  moonglass with the adapter process / Koishi no DB: throughput ${ratio(forked.answersPerSecond, koishi.answersPerSecond)}, p99 ${ratio(forked.p99, koishi.p99)}, peak RSS ${ratio(forked.peakRssSumMiB, koishi.peakRssSumMiB)}, CPU per answer ${ratio(forked.cpuSecondsPer1000Answers, koishi.cpuSecondsPer1000Answers)}`);
}

interface Goal {
  goal: string;
  /** undefined: not judged (its level did not run, or a target's runs broke). */
  met: boolean | undefined;
  detail: string;
}

function judgeGoals(byLevel: ReadonlyMap<number, readonly TargetSummary[]>): Goal[] {
  const get = (users: number, target: TargetName) => byLevel.get(users)?.find((summary) => summary.target === target);
  const goals: Goal[] = [];
  for (const users of [100, 1000]) {
    const moonglass = get(users, 'moonglass');
    const koishi = get(users, 'koishi');
    const throughput = moonglass?.answersPerSecond !== undefined && koishi?.answersPerSecond !== undefined ? moonglass.answersPerSecond.median / koishi.answersPerSecond.median : undefined;
    goals.push({
      goal: `C=${users}: moonglass throughput >= 2x Koishi without a database`,
      met: throughput === undefined ? undefined : throughput >= 2,
      detail: throughput === undefined ? 'not run' : `${throughput.toFixed(2)}x (${digits(moonglass!.answersPerSecond!.median)} vs ${digits(koishi!.answersPerSecond!.median)} answers/s)`,
    });
    const p99 = moonglass?.p99 !== undefined && koishi?.p99 !== undefined ? [moonglass.p99.median, koishi.p99.median] : undefined;
    goals.push({
      goal: `C=${users}: moonglass p99 <= Koishi's`,
      met: p99 === undefined ? undefined : p99[0]! <= p99[1]!,
      detail: p99 === undefined ? 'not run' : `${digits(p99[0]!)} ms vs ${digits(p99[1]!)} ms (${(p99[0]! / p99[1]!).toFixed(2)}x)`,
    });
  }
  for (const [users, limit] of [
    [1, 1.3],
    [1000, 1],
  ] as const) {
    const moonglass = get(users, 'moonglass')?.peakRssSumMiB;
    const koishi = get(users, 'koishi')?.peakRssSumMiB;
    const ratio = moonglass !== undefined && koishi !== undefined ? moonglass.median / koishi.median : undefined;
    goals.push({
      goal: `C=${users}: peak RSS of all moonglass processes <= ${limit === 1 ? "Koishi's" : `${limit}x Koishi's`}`,
      met: ratio === undefined ? undefined : ratio <= limit,
      detail: ratio === undefined ? 'not run' : `${ratio.toFixed(2)}x (${digits(moonglass!.median)} vs ${digits(koishi!.median)} MiB)`,
    });
  }
  return goals;
}

/**
 * Runs the peers benchmark at each level (MOONGLASS_PEERS_LEVELS) for its rounds, prints the
 * tables, ratios and goals, and writes .bench-temp/peers/last.json; true when every delivery
 * check passed.
 */
export async function benchPeers(): Promise<boolean> {
  const levels = envList('MOONGLASS_PEERS_LEVELS', DEFAULT_LEVELS);
  const targets = targetsFor();
  const koishiFolder = installKoishi();
  const build: MoonglassBuild = prepareMoonglass();
  const setup: TargetSetup = { moonglassProject: build.project, koishiFolder };
  const runs: RunResult[] = [];
  const byLevel = new Map<number, TargetSummary[]>();
  const started = performance.now();
  for (const users of levels) {
    const rounds = roundsFor();
    for (let round = 0; round < rounds; round += 1) {
      const order = targets.map((_, index) => targets[(index + round) % targets.length]!);
      for (const target of order) {
        globalThis.gc?.(); // the driver's own garbage from the previous run is not this run's
        const result = await runOnce(target, users, round, setup);
        runs.push(result);
        const minutes = ((performance.now() - started) / 60_000).toFixed(1);
        console.error(
          `peers: C=${users} round ${round + 1}/${rounds} ${target}: ${
            result.error === undefined
              ? `${result.answersPerSecond!.toFixed(0)} answers/s, p99 ${result.latencyMs!.p99.toFixed(1)} ms, peak RSS ${result.peakRssSumMiB!.toFixed(0)} MiB, delivery ${result.deliveryPassed ? 'ok' : 'FAILED'}`
              : `BROKE: ${result.error.split('\n')[0]}`
          } [${minutes} min]`,
        );
      }
    }
    const summaries = targets.map((target) => summarize(target, runs.filter((run) => run.users === users && run.target === target)));
    byLevel.set(users, summaries);
  }
  console.log(`\nPeers: one OneBot v11 reverse-WebSocket connection on loopback, C users x ${MESSAGES_PER_USER} messages, each waiting for its answer (moonglass ${build.commit}${build.dirtySourceFiles > 0 ? ` + ${build.dirtySourceFiles} changed files under src/` : ''}, compiled dist/)`);
  for (const users of levels) printLevel(users, roundsFor(), byLevel.get(users)!);
  const goals = judgeGoals(byLevel);
  console.log('\nGoals (issue 20), judged on the medians:');
  for (const goal of goals) console.log(`  ${goal.goal} -> ${goal.detail} ${goal.met === undefined ? 'NOT JUDGED' : goal.met ? 'MET' : 'MISSED'}`);
  const deliveryPassed = runs.every((run) => run.deliveryPassed);
  console.log(`\nDelivery: ${deliveryPassed ? 'every message of every run answered exactly once (moonglass: stored once)' : 'FAILED in some run (see the tables and last.json)'}`);
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  const levelsOut = levels.map((users) => ({ users, rounds: roundsFor(), targets: byLevel.get(users) }));
  writeFileSync(RESULTS_FILE, `${JSON.stringify({ finishedAt: new Date().toISOString(), moonglass: build, messagesPerUser: MESSAGES_PER_USER, levels: levelsOut, goals, deliveryPassed, runs }, null, 2)}\n`);
  console.log(`Full results: ${RESULTS_FILE}`);
  return deliveryPassed;
}

// `npm run bench:peers` runs this benchmark alone (it is not part of `npm run bench`).
if (import.meta.url === `file://${process.argv[1]}`) {
  const passed = await benchPeers();
  process.exitCode = passed ? 0 : 1;
}

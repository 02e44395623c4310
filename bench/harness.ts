/**
 * A small interleaved benchmark harness. Each case runs in batches; rounds alternate between
 * the cases so machine noise hits all of them alike, and the median of the rounds is kept.
 * The order rotates every round: a case that runs right after an allocating one pays for
 * that one's garbage collection, so no case may always hold the same position.
 * Ratios against a baseline measured in the same run are what to read, not absolute times.
 */
import { judgeGoal, median } from './support/goal.js';

export interface BenchCase {
  name: string;
  fn: () => unknown;
  /** Await each call (for functions returning promises). */
  async?: boolean;
}

export interface BenchResult {
  name: string;
  /** Median nanoseconds per call over the rounds. */
  nsPerOp: number;
  /** Nanoseconds per call of each round, in round order: sample `i` of every case ran in round `i`. */
  samples: readonly number[];
}

export interface BenchOptions {
  /** Calls per timed batch. */
  batch?: number;
  /** Timed rounds per case (after warm-up). */
  rounds?: number;
}

async function timeBatch(benchCase: BenchCase, batch: number): Promise<number> {
  const { fn } = benchCase;
  const start = process.hrtime.bigint();
  if (benchCase.async) {
    for (let index = 0; index < batch; index += 1) await fn();
  } else {
    for (let index = 0; index < batch; index += 1) fn();
  }
  return Number(process.hrtime.bigint() - start) / batch;
}

export async function runInterleaved(cases: readonly BenchCase[], options: BenchOptions = {}): Promise<BenchResult[]> {
  const batch = options.batch ?? 20_000;
  const rounds = options.rounds ?? 20;
  for (const benchCase of cases) await timeBatch(benchCase, batch); // warm-up: let V8 optimise
  const samples = cases.map(() => [] as number[]);
  for (let round = 0; round < rounds; round += 1) {
    for (let offset = 0; offset < cases.length; offset += 1) {
      const index = (round + offset) % cases.length;
      samples[index]!.push(await timeBatch(cases[index]!, batch));
    }
  }
  return cases.map((benchCase, index) => ({ name: benchCase.name, nsPerOp: median(samples[index]!), samples: samples[index]! }));
}

export function formatNs(ns: number): string {
  return ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${ns.toFixed(1)} ns`;
}

/** Prints a result table with each row's ratio to `baseline`. */
export function printTable(title: string, results: readonly BenchResult[], baselineName: (name: string) => string | undefined): void {
  console.log(`\n${title}`);
  const byName = new Map(results.map((result) => [result.name, result]));
  const width = Math.max(...results.map((result) => result.name.length));
  for (const result of results) {
    const baseline = byName.get(baselineName(result.name) ?? '');
    const ratio = baseline !== undefined && baseline !== result ? `  ${(result.nsPerOp / baseline.nsPerOp).toFixed(2)}x ${baseline.name}` : '';
    console.log(`  ${result.name.padEnd(width)}  ${formatNs(result.nsPerOp).padStart(10)}${ratio}`);
  }
}

/** The samples of the case named `name` (it must exist). */
export function samplesOf(results: readonly BenchResult[], name: string): readonly number[] {
  const result = results.find((candidate) => candidate.name === name);
  if (result === undefined) throw new Error(`no bench case named "${name}"`);
  return result.samples;
}

/**
 * A goal measured once, as a ratio to its limit (`label` at most `goal`x). Goals measured in
 * rounds use `judgeGoal` / `judgeRatio` from ./support/goal.ts, which this goes through too.
 */
export function printGoal(label: string, ratio: number, goal: number): boolean {
  return judgeGoal({ label, samples: [ratio], comparison: '<=', limit: goal, unit: 'x' });
}

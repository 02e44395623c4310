import { availableParallelism, loadavg } from 'node:os';

/**
 * The one way a bench judges its goals. A goal is judged on the median of its rounds (each
 * round one sample of the judged quantity; for a ratio, the measured case over its baseline
 * timed in the same round), and its line shows the spread of the rounds and the machine's
 * load, so that a goal missed on a loaded machine reads as MISSED, with the load beside it
 * as context, never as met. Every verdict is also kept for the summary `npm run bench` ends with.
 */
export type GoalStatus = 'MET' | 'MISSED' | 'SKIPPED';

export interface GoalVerdict {
  label: string;
  status: GoalStatus;
  /** The line printed for it, without the leading `goal: `. */
  detail: string;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** (max - min) / median: 0.1 is a spread of 10% of the median. */
  relative: number;
  count: number;
}

export type GoalComparison = '<=' | '<' | '>=' | '>';

export interface Goal {
  /** What is measured, e.g. `bus.publish, 10 handlers, 30 s timeouts`. */
  label: string;
  /** One sample of the judged quantity per round. */
  samples: readonly number[];
  comparison: GoalComparison;
  limit: number;
  /** Written after each number: `x`, ` ms`, ` turns/s`. */
  unit: string;
  /** Written after the limit only, e.g. `bare loop` for `≤ 1.5x bare loop`. */
  of?: string;
}

const verdicts: GoalVerdict[] = [];

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function spreadOf(values: readonly number[]): Spread {
  const middle = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { median: middle, min, max, relative: middle === 0 ? 0 : (max - min) / Math.abs(middle), count: values.length };
}

/** Per-round ratios of `measured` to `baseline`, both listed in round order (same length). */
export function ratiosByRound(measured: readonly number[], baseline: readonly number[]): number[] {
  if (measured.length !== baseline.length || measured.length === 0) {
    throw new Error(`ratiosByRound needs one baseline sample per measured round (got ${measured.length} and ${baseline.length})`);
  }
  return measured.map((value, round) => value / baseline[round]!);
}

/** A number at a precision that suits its size: 1,234 / 12.3 / 1.23. */
export function formatNumber(value: number): string {
  const size = Math.abs(value);
  if (size >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(size >= 10 ? 1 : 2);
}

/** The 1-minute load average and the core count, e.g. `load 2.10 on 2 cores`. */
export function machineLoad(): string {
  return `load ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores`;
}

const SYMBOL: Record<GoalComparison, string> = { '<=': '≤', '<': '<', '>=': '≥', '>': '>' };

function holds(value: number, comparison: GoalComparison, limit: number): boolean {
  switch (comparison) {
    case '<=':
      return value <= limit;
    case '<':
      return value < limit;
    case '>=':
      return value >= limit;
    case '>':
      return value > limit;
  }
}

/** `median 1.62x (rounds 1.55–1.81x, spread 16%, 7 rounds; load 2.10 on 2 cores)`. */
export function describeSamples(samples: readonly number[], unit: string): string {
  const spread = spreadOf(samples);
  const rounds =
    spread.count === 1
      ? '1 measurement'
      : `rounds ${formatNumber(spread.min)}–${formatNumber(spread.max)}${unit}, spread ${(spread.relative * 100).toFixed(0)}%, ${spread.count} rounds`;
  return `median ${formatNumber(spread.median)}${unit} (${rounds}; ${machineLoad()})`;
}

function record(verdict: GoalVerdict): boolean {
  verdicts.push(verdict);
  console.log(`  goal: ${verdict.detail} -> ${verdict.status}`);
  return verdict.status !== 'MISSED';
}

/**
 * Judges `goal` on the median of its samples, prints
 * `goal: <label> ≤ 1.5x bare loop — median 1.62x (rounds 1.55–1.81x, spread 16%, 7 rounds; load 2.10 on 2 cores) -> MISSED`
 * and returns whether it was met.
 */
export function judgeGoal(goal: Goal): boolean {
  const value = median(goal.samples);
  const target = `${SYMBOL[goal.comparison]} ${formatNumber(goal.limit)}${goal.unit}${goal.of === undefined ? '' : ` ${goal.of}`}`;
  const status = holds(value, goal.comparison, goal.limit) ? 'MET' : 'MISSED';
  return record({ label: goal.label, status, detail: `${goal.label} ${target} — ${describeSamples(goal.samples, goal.unit)}` });
}

/**
 * A ratio goal: `measured` against `baseline`, one sample each per interleaved round; judged
 * on the median of the per-round ratios (each round's pair ran under the same load).
 */
export function judgeRatio(goal: { label: string; measured: readonly number[]; baseline: readonly number[]; of: string; atMost: number }): boolean {
  return judgeGoal({ label: goal.label, samples: ratiosByRound(goal.measured, goal.baseline), comparison: '<=', limit: goal.atMost, unit: 'x', of: goal.of });
}

/** A goal that holds or not (every plugin loaded, every message answered once): `detail` says what was seen. */
export function judgeCondition(label: string, holdsNow: boolean, detail: string): boolean {
  return record({ label, status: holdsNow ? 'MET' : 'MISSED', detail: `${label} — ${detail}` });
}

/** A goal that could not be measured in this run (a missing baseline): neither met nor missed. */
export function skipGoal(label: string, reason: string): boolean {
  return record({ label, status: 'SKIPPED', detail: `${label} — ${reason}` });
}

/** Every verdict judged so far in this process, in order. */
export function judgedGoals(): readonly GoalVerdict[] {
  return verdicts;
}

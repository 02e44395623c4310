import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { childPids, processMemoryMiB } from '../process-memory.js';

// Memory and CPU of a process and all its descendants, from /proc (Linux): what one target of
// bench/peers.bench.ts costs, whatever processes it forks (moonglass: host and adapter process).

/** `/proc/<pid>/stat` counts CPU time in clock ticks; Linux's USER_HZ is 100 on every common build (`getconf CLK_TCK`). */
const CLOCK_TICKS_PER_SECOND = 100;

/** `pid` and every descendant alive now, parents before children. */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (let index = 0; index < pids.length; index += 1) pids.push(...childPids(pids[index]!));
  return pids;
}

/** User plus system CPU seconds `pid` has used so far (its own threads; not reaped children), or 0 when it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** A short name for a process: its script's file name (`main.js`, `adapter-process.js`), else its executable's. */
export function processLabel(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const script = argv.slice(1).find((arg) => !arg.startsWith('-') && /\.(m|c)?(j|t)s$/.test(arg));
    return basename(script ?? argv[0] ?? String(pid));
  } catch {
    return String(pid);
  }
}

export interface TreeProcess {
  pid: number;
  label: string;
  /** VmHWM: the process's own peak resident set, MiB. */
  peakMiB: number;
}

/**
 * Watches the tree under a root pid while it runs: every `intervalMs` it sums VmRSS over all
 * processes alive and keeps the largest sum (processes peak at different moments, so the sum
 * of their VmHWM is an upper bound of that); `stop()` reads each process's VmHWM, to be called
 * right before the processes are stopped.
 */
export class TreeMemorySampler {
  readonly #rootPid: number;
  readonly #timer: NodeJS.Timeout;
  #peakSumMiB = 0;

  constructor(rootPid: number, intervalMs = 250) {
    this.#rootPid = rootPid;
    this.#sample();
    this.#timer = setInterval(() => this.#sample(), intervalMs);
    this.#timer.unref();
  }

  /** The largest VmRSS sum seen so far, MiB. */
  get peakSumMiB(): number {
    return this.#peakSumMiB;
  }

  /** Stops sampling (after one last sample) and returns each process's VmHWM. */
  stop(): TreeProcess[] {
    this.#sample();
    clearInterval(this.#timer);
    return processTree(this.#rootPid).map((pid) => ({ pid, label: processLabel(pid), peakMiB: processMemoryMiB(pid, 'VmHWM') ?? 0 }));
  }

  #sample(): void {
    let sum = 0;
    for (const pid of processTree(this.#rootPid)) sum += processMemoryMiB(pid, 'VmRSS') ?? 0;
    if (sum > this.#peakSumMiB) this.#peakSumMiB = sum;
  }
}

/** CPU seconds of each process in the tree under `rootPid` now, by pid. */
export function treeCpuSeconds(rootPid: number): Map<number, number> {
  return new Map(processTree(rootPid).map((pid) => [pid, cpuSeconds(pid)]));
}

/** CPU seconds the tree used between two readings (a process started in between counts from 0; one that exited is lost). */
export function cpuSecondsBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let sum = 0;
  for (const [pid, seconds] of after) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}

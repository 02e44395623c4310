import { readFileSync } from 'node:fs';

/**
 * A memory field of a process from `/proc/<pid>/status` (`VmRSS`: resident now, `VmHWM`:
 * the peak), in MiB, or undefined when it cannot be read (not Linux, or the process is gone).
 */
export function processMemoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith(`${field}:`));
    return line === undefined ? undefined : Number(/(\d+)/.exec(line)![1]) / 1024;
  } catch {
    return undefined;
  }
}

/** The pids of `pid`'s child processes (Linux); the host's only child is its adapter process. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

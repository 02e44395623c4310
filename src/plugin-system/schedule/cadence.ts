import { Cron } from 'croner';
import { describeError } from '../../kernel/errors/describe-error.js';
import { InvalidArgumentError } from '../../kernel/errors/invalid-argument-error.js';
import type { ScheduleSpec } from './schedule-types.js';

/** A job's times, computed from a reference moment (no timers of its own). */
export interface Cadence {
  /** The spec as stored and logged: the cron expression, or `every 600 s`. */
  readonly text: string;
  /** The first due time strictly after `afterMs` (epoch ms); undefined when there is none. */
  nextAfter(afterMs: number): number | undefined;
}

const CRON_FIELDS = 'a 5-field cron expression (minute hour day-of-month month day-of-week, e.g. "0 9 * * *")';
const INTERVAL = '{ everySeconds: <a positive number> }';

/**
 * Reads a `ScheduleSpec`. A cron expression is parsed by croner in 5-field mode and read in
 * `timeZone` (an IANA name; undefined: the machine's zone). `where` names the caller in errors
 * (`plugin weather: ctx.schedule`).
 */
export function parseCadence(spec: ScheduleSpec, timeZone: string | undefined, where: string): Cadence {
  if (typeof spec === 'string') return cronCadence(spec, timeZone, where);
  if (typeof spec === 'object' && spec !== null && typeof spec.everySeconds === 'number') {
    const seconds = spec.everySeconds;
    if (!(Number.isFinite(seconds) && seconds > 0)) throw new InvalidArgumentError(where, 'spec.everySeconds', seconds, 'a positive, finite number of seconds');
    const everyMs = seconds * 1000;
    return { text: `every ${seconds} s`, nextAfter: (afterMs) => afterMs + everyMs };
  }
  throw new InvalidArgumentError(where, 'spec', JSON.stringify(spec) ?? String(spec), `${CRON_FIELDS} or ${INTERVAL}`);
}

function cronCadence(expression: string, timeZone: string | undefined, where: string): Cadence {
  const text = expression.trim();
  let cron: Cron;
  try {
    // No function: croner only computes times here; our own timers on the host clock run the job.
    cron = new Cron(text, { mode: '5-part', paused: true, ...(timeZone === undefined ? {} : { timezone: timeZone }) });
  } catch (error) {
    throw new InvalidArgumentError(where, 'spec', `"${expression}"`, `${CRON_FIELDS} (${error instanceof Error ? error.message : describeError(error)})`);
  }
  const nextAfter = (afterMs: number): number | undefined => cron.nextRun(new Date(afterMs))?.getTime();
  if (nextAfter(Date.UTC(2000, 0, 1)) === undefined) throw new InvalidArgumentError(where, 'spec', `"${expression}"`, `${CRON_FIELDS} that names a time that exists (this one never comes)`);
  return { text, nextAfter };
}

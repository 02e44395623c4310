import { describeError } from '../../kernel/errors/describe-error.js';
import type { Clock, TimerHandle } from '../../kernel/time/clock.js';

/** The plugin lifecycle steps the host waits for. */
export type LifecycleStep = 'onLoad' | 'onUnload';

/** A lifecycle step the host stopped waiting for (timed out, or the host stopped); the message is the whole reason. */
export class LifecycleStepAbandoned extends Error {
  readonly step: LifecycleStep;

  constructor(step: LifecycleStep, message: string) {
    super(message);
    this.name = 'LifecycleStepAbandoned';
    this.step = step;
  }
}

export interface LifecycleStepOptions {
  step: LifecycleStep;
  /** Calls the plugin's `onLoad` or `onUnload`. */
  run: () => unknown;
  clock: Clock;
  timeoutMs: number;
  /** Aborted when the host stops meanwhile (an `onLoad` during `loadAll`). */
  stopped?: AbortSignal;
  /** The step was given up on and completed later (an `onLoad`: let the plugin clean up). */
  completedLate?: () => void;
}

/**
 * Runs one lifecycle step under the lifecycle timeout. Rejects with the plugin's error when
 * the step throws, and with a `LifecycleStepAbandoned` naming the step when it outlasts the
 * timeout or the host stops meanwhile; a step given up on that completes later calls
 * `completedLate`. A plugin can therefore never hang the host's start, stop or a reload.
 */
export async function runLifecycleStep(options: LifecycleStepOptions): Promise<void> {
  const { step, clock, timeoutMs, stopped } = options;
  const work = new Promise<void>((resolve) => resolve(options.run() as Promise<void>));
  let timer: TimerHandle | undefined;
  let onStop: (() => void) | undefined;
  const outcome = await new Promise<'done' | 'timed-out' | 'stopped'>((resolve, reject) => {
    timer = clock.setTimeout(() => resolve('timed-out'), timeoutMs);
    if (stopped !== undefined) {
      onStop = () => resolve('stopped');
      if (stopped.aborted) onStop();
      else stopped.addEventListener('abort', onStop, { once: true });
    }
    work.then(() => resolve('done'), reject);
  }).finally(() => {
    if (timer !== undefined) clock.clearTimeout(timer);
    if (onStop !== undefined) stopped?.removeEventListener('abort', onStop);
  });
  if (outcome === 'done') return;
  if (options.completedLate !== undefined) {
    const late = options.completedLate;
    void work.then(
      () => late(),
      () => undefined,
    );
  }
  throw new LifecycleStepAbandoned(step, outcome === 'timed-out' ? `${step} timed out after ${inSeconds(timeoutMs)}` : `the host stopped while ${step} was pending`);
}

/** A status reason: `onLoad timed out after 30 s` as it is, anything else with its error name. */
export function lifecycleReasonOf(error: unknown): string {
  return error instanceof LifecycleStepAbandoned ? error.message : describeError(error);
}

/** `30 s`, `1.5 s`: how a timeout reads in a status reason. */
function inSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

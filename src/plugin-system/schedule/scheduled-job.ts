import { describeError } from '../../kernel/errors/describe-error.js';
import type { Logger } from '../../kernel/logger/logger.js';
import type { Clock, TimerHandle } from '../../kernel/time/clock.js';
import type { ScheduleRepository } from '../../storage/schedule-repository.js';
import type { Cadence } from './cadence.js';
import type { MissedRunPolicy, ScheduledTask } from './schedule-types.js';

// Timers wait at most this long and then look at the clock again: Node fires a timer of more
// than 2^31-1 ms (24.8 days) at once, and a machine that slept may have moved the wall clock.
const LONGEST_WAIT_MS = 60 * 60 * 1000;

export interface ScheduledJobSetup {
  pluginId: string;
  name: string;
  cadence: Cadence;
  task: ScheduledTask;
  clock: Clock;
  /** The plugin's logger. */
  logger: Logger;
  /** Where the job's runs are remembered; undefined for a job that is not persisted. */
  store: ScheduleRepository | undefined;
  missed: MissedRunPolicy;
}

/**
 * One plugin job: arms a host-clock timer for its next time, runs the task, then arms the
 * next. A run never overlaps the previous one: the next time is computed when a run ends, and
 * a time that passed meanwhile runs at once, once. A persisted job starts from its stored last
 * run, so a time that fell due while the host was down is run once or skipped (`missed`).
 */
export class ScheduledJob {
  readonly #setup: ScheduledJobSetup;
  #timer: TimerHandle | undefined;
  #running: AbortController | undefined;
  #stopped = false;

  constructor(setup: ScheduledJobSetup) {
    this.#setup = setup;
  }

  start(): void {
    const { cadence, clock, store, pluginId, name, missed, logger } = this.#setup;
    const now = clock.now();
    if (store === undefined) {
      this.#arm(cadence.nextAfter(now));
      return;
    }
    const record = store.register(pluginId, name, cadence.text, now);
    const due = cadence.nextAfter(record.lastRunAt ?? record.createdAt);
    if (due === undefined || due > now) {
      this.#arm(due);
      return;
    }
    const since = new Date(record.lastRunAt ?? record.createdAt).toISOString();
    if (missed === 'run_once') {
      logger.info({ job: name, due: new Date(due).toISOString(), lastRun: since }, 'a scheduled job missed its time while the host was down; it runs once now');
      this.#arm(due, true); // at once, but after the plugin's ctx.schedule call has returned
    } else {
      logger.info({ job: name, due: new Date(due).toISOString(), lastRun: since }, 'a scheduled job missed its time while the host was down; skipped (missed: skip)');
      this.#arm(cadence.nextAfter(now));
    }
  }

  /** Cancels the timer and aborts a run in progress (its task is told through `signal`). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#setup.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#running?.abort(new Error(`the scheduled job ${this.#setup.name} of plugin ${this.#setup.pluginId} was cancelled`));
  }

  #arm(due: number | undefined, missed = false): void {
    if (this.#stopped) return;
    const { clock, logger, name } = this.#setup;
    if (due === undefined) {
      logger.info({ job: name }, 'a scheduled job has no time left to run');
      return;
    }
    logger.debug({ job: name, next: new Date(due).toISOString() }, 'a scheduled job waits for its next time');
    const wait = Math.min(Math.max(0, due - clock.now()), LONGEST_WAIT_MS);
    this.#timer = clock.setTimeout(() => {
      this.#timer = undefined;
      if (this.#stopped) return;
      if (clock.now() < due) this.#arm(due, missed);
      else void this.#run(due, missed);
    }, wait);
  }

  async #run(scheduledAt: number, missed: boolean): Promise<void> {
    const { clock, logger, name, task, cadence } = this.#setup;
    const startedAt = clock.now();
    const controller = new AbortController();
    this.#running = controller;
    this.#remember((store, pluginId) => store.recordRun(pluginId, name, startedAt));
    let failure: string | undefined;
    try {
      await task({ name, scheduledAt, missed, signal: controller.signal });
    } catch (error) {
      failure = describeError(error);
      logger.error({ job: name, error: failure }, 'a scheduled job of the plugin failed; its schedule goes on');
    }
    this.#running = undefined;
    if (this.#stopped) return;
    this.#remember((store, pluginId) => store.recordOutcome(pluginId, name, failure));
    const next = cadence.nextAfter(startedAt);
    if (next !== undefined && next <= clock.now()) {
      logger.debug({ job: name, due: new Date(next).toISOString(), tookMs: clock.now() - startedAt }, 'a scheduled job ran past its next time; the next run starts now, late');
      void this.#run(next, false);
      return;
    }
    this.#arm(next);
  }

  #remember(write: (store: ScheduleRepository, pluginId: string) => void): void {
    const { store, pluginId, logger, name } = this.#setup;
    if (store === undefined) return;
    try {
      write(store, pluginId);
    } catch (error) {
      logger.warn({ job: name, error: describeError(error) }, 'could not record a scheduled run in the database; the schedule goes on');
    }
  }
}

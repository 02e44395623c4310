import type { Disposer } from '../../kernel/scope/disposer.js';

/**
 * When a job runs: a 5-field cron expression (`minute hour day-of-month month day-of-week`,
 * e.g. `'0 9 * * *'` for 09:00 every day), read in the bot's time zone (`bot.toml [bot]
 * timezone`, empty: the machine's); or a fixed interval in seconds (`{ everySeconds: 600 }`),
 * counted from the start of the previous run.
 */
export type ScheduleSpec =
  | string
  | {
      /** Seconds between the starts of two runs; must be positive. */
      readonly everySeconds: number;
    };

/**
 * What a persisted job does about a run that fell due while the host was down: `run_once`
 * runs it once soon after the start (however many runs were missed), `skip` waits for the next.
 */
export type MissedRunPolicy = 'run_once' | 'skip';

/** How `ctx.schedule` names and keeps a job; every field optional. */
export interface ScheduleOptions {
  /**
   * The job's name, unique among the plugin's live jobs; its record in the database is kept
   * under it. Required when the job is persisted; a job with `persist: false` gets one from
   * its spec when left out.
   */
  readonly name?: string;
  /** Remember the last run across restarts (default true), so a missed run is found. */
  readonly persist?: boolean;
  /** Default `run_once`. Only persisted jobs know about runs missed while the host was down. */
  readonly missed?: MissedRunPolicy;
}

/** What a job's function is told about the run. */
export interface ScheduledRun {
  /** The job's name. */
  readonly name: string;
  /** Epoch milliseconds: the time this run was due (earlier than now for a late or missed run). */
  readonly scheduledAt: number;
  /** True for the one catch-up run of a time missed while the host was down. */
  readonly missed: boolean;
  /** Aborted when the plugin unloads or the job is cancelled while this run is going. */
  readonly signal: AbortSignal;
}

/** A job's work. It may be async; runs of one job never overlap. A throw is logged and the schedule goes on. */
export type ScheduledTask = (run: ScheduledRun) => unknown;

/**
 * `ctx.schedule(spec, task, options?)`: runs `task` on the host's clock at the times `spec`
 * names until the plugin unloads or reloads, or the returned disposer is called.
 */
export type PluginScheduleFunction = (spec: ScheduleSpec, task: ScheduledTask, options?: ScheduleOptions) => Disposer;

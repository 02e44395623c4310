/** What the host remembers of one persisted plugin job (`ctx.schedule`). */
export interface ScheduleRecord {
  pluginId: string;
  jobName: string;
  /** The job's cadence as written (a cron expression, or `every 600 s`). */
  spec: string;
  /** Epoch milliseconds: when the job was first registered. */
  createdAt: number;
  /** Epoch milliseconds: when its last run started; undefined before the first run. */
  lastRunAt: number | undefined;
  /** The last run's error, undefined when it succeeded (or never ran). */
  lastError: string | undefined;
}

/** Persisted plugin jobs, by plugin id and job name. */
export interface ScheduleRepository {
  /** The job's record, created at `nowMs` when it has none; a changed `spec` is stored. */
  register(pluginId: string, jobName: string, spec: string, nowMs: number): ScheduleRecord;
  /** Records that a run started at `startedAtMs`. */
  recordRun(pluginId: string, jobName: string, startedAtMs: number): void;
  /** Records how the last run ended: `error` undefined for a success. */
  recordOutcome(pluginId: string, jobName: string, error: string | undefined): void;
}

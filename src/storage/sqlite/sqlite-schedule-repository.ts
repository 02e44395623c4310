import type BetterSqlite3 from 'better-sqlite3';
import type { ScheduleRecord, ScheduleRepository } from '../schedule-repository.js';
import { writeError } from './write-error.js';

interface ScheduleRow {
  plugin_id: string;
  job_name: string;
  spec: string;
  created_at: number;
  last_run_at: number | null;
  last_error: string | null;
}

/** `ScheduleRepository` on the `schedules` table. */
export class SqliteScheduleRepository implements ScheduleRepository {
  readonly #file: string;
  readonly #register: BetterSqlite3.Statement<[{ plugin_id: string; job_name: string; spec: string; created_at: number }]>;
  readonly #get: BetterSqlite3.Statement<[string, string], ScheduleRow>;
  readonly #recordRun: BetterSqlite3.Statement<[number, string, string]>;
  readonly #recordOutcome: BetterSqlite3.Statement<[string | null, string, string]>;

  constructor(database: BetterSqlite3.Database) {
    this.#file = database.name;
    this.#register = database.prepare(
      `INSERT INTO schedules (plugin_id, job_name, spec, created_at) VALUES (@plugin_id, @job_name, @spec, @created_at)
       ON CONFLICT (plugin_id, job_name) DO UPDATE SET spec = excluded.spec`,
    );
    this.#get = database.prepare('SELECT plugin_id, job_name, spec, created_at, last_run_at, last_error FROM schedules WHERE plugin_id = ? AND job_name = ?');
    this.#recordRun = database.prepare('UPDATE schedules SET last_run_at = ? WHERE plugin_id = ? AND job_name = ?');
    this.#recordOutcome = database.prepare('UPDATE schedules SET last_error = ? WHERE plugin_id = ? AND job_name = ?');
  }

  register(pluginId: string, jobName: string, spec: string, nowMs: number): ScheduleRecord {
    try {
      this.#register.run({ plugin_id: pluginId, job_name: jobName, spec, created_at: nowMs });
    } catch (error) {
      throw writeError(this.#file, `register the schedule ${jobName} of plugin ${pluginId}`, error);
    }
    const row = this.#get.get(pluginId, jobName)!;
    return {
      pluginId: row.plugin_id,
      jobName: row.job_name,
      spec: row.spec,
      createdAt: row.created_at,
      lastRunAt: row.last_run_at ?? undefined,
      lastError: row.last_error ?? undefined,
    };
  }

  recordRun(pluginId: string, jobName: string, startedAtMs: number): void {
    try {
      this.#recordRun.run(startedAtMs, pluginId, jobName);
    } catch (error) {
      throw writeError(this.#file, `record a run of the schedule ${jobName} of plugin ${pluginId}`, error);
    }
  }

  recordOutcome(pluginId: string, jobName: string, error: string | undefined): void {
    try {
      this.#recordOutcome.run(error ?? null, pluginId, jobName);
    } catch (failure) {
      throw writeError(this.#file, `record how a run of the schedule ${jobName} of plugin ${pluginId} ended`, failure);
    }
  }
}

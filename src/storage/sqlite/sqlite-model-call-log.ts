import type BetterSqlite3 from 'better-sqlite3';
import type { DailyTaskUsage, ModelCallLog, ModelCallRecord } from '../model-call-log.js';
import { writeError } from './write-error.js';

interface UsageRow {
  day: string;
  task: string;
  calls: number;
  failures: number;
  prompt_tokens: number;
  completion_tokens: number;
  average_ms: number | null;
}

/** `ModelCallLog` on the `model_calls` table; days are the host's local calendar days. */
export class SqliteModelCallLog implements ModelCallLog {
  readonly #file: string;
  readonly #insert: BetterSqlite3.Statement<[number, string, string, string | null, string | null, number, number | null, number | null, number | null]>;
  readonly #daily: BetterSqlite3.Statement<[number], UsageRow>;
  readonly #deleteBefore: BetterSqlite3.Statement<[number]>;

  constructor(database: BetterSqlite3.Database) {
    this.#file = database.name;
    this.#insert = database.prepare(
      `INSERT INTO model_calls (time, task, request_name, model, stream_id, success, prompt_tokens, completion_tokens, duration_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#daily = database.prepare(
      `SELECT date(time / 1000, 'unixepoch', 'localtime') AS day, task,
              COUNT(*) AS calls, SUM(success = 0) AS failures,
              COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens, COALESCE(SUM(completion_tokens), 0) AS completion_tokens,
              AVG(CASE WHEN success = 1 THEN duration_ms END) AS average_ms
       FROM model_calls WHERE time >= ? GROUP BY day, task ORDER BY day, task`,
    );
    this.#deleteBefore = database.prepare<[number]>('DELETE FROM model_calls WHERE time < ?');
  }

  record(entry: ModelCallRecord): void {
    try {
      this.#insert.run(
        entry.time,
        entry.task,
        entry.requestName,
        entry.model,
        entry.streamId,
        entry.success ? 1 : 0,
        entry.promptTokens,
        entry.completionTokens,
        entry.durationMs,
      );
    } catch (error) {
      throw writeError(this.#file, `log a ${entry.task} model call`, error);
    }
  }

  dailyUsage(sinceMs: number): DailyTaskUsage[] {
    return this.#daily.all(sinceMs).map((row) => ({
      day: row.day,
      task: row.task,
      calls: row.calls,
      failures: row.failures,
      promptTokens: row.prompt_tokens,
      completionTokens: row.completion_tokens,
      averageMs: row.average_ms === null ? null : Math.round(row.average_ms),
    }));
  }

  deleteBefore(epochMs: number): number {
    try {
      return this.#deleteBefore.run(epochMs).changes;
    } catch (error) {
      throw writeError(this.#file, `delete the model calls older than ${new Date(epochMs).toISOString()}`, error);
    }
  }
}

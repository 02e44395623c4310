import type BetterSqlite3 from 'better-sqlite3';
import type { Logger } from '../../kernel/logger/logger.js';
import type { ToolCallLog, ToolCallRecord } from '../tool-call-log.js';
import { asPlainObject } from './as-plain-object.js';
import { checkLimit } from './check-limit.js';
import { fromJsonColumn } from './from-json-column.js';
import { toJsonColumn } from './to-json-column.js';
import { writeError } from './write-error.js';

interface ToolCallRow {
  stream_id: string | null;
  call_id: string | null;
  tool_name: string | null;
  arguments: string | null;
  success: 0 | 1 | null;
  observation: string | null;
  error_message: string | null;
  started_at: number | null;
  duration_ms: number | null;
}

const COLUMNS = 'stream_id, call_id, tool_name, arguments, success, observation, error_message, started_at, duration_ms';

/** `ToolCallLog` on the `tool_calls` table. */
export class SqliteToolCallLog implements ToolCallLog {
  readonly #file: string;
  readonly #logger: Logger;
  readonly #insert: BetterSqlite3.Statement<[ToolCallRow]>;
  readonly #recent: BetterSqlite3.Statement<[string, number], ToolCallRow>;
  readonly #deleteBefore: BetterSqlite3.Statement<[number]>;

  constructor(database: BetterSqlite3.Database, logger: Logger) {
    this.#file = database.name;
    this.#logger = logger;
    this.#insert = database.prepare<ToolCallRow>(
      `INSERT INTO tool_calls (${COLUMNS})
       VALUES (@stream_id, @call_id, @tool_name, @arguments, @success, @observation, @error_message, @started_at, @duration_ms)`,
    );
    // By the time index, from the newest call back until `limit` of the stream's are found
    // (migration 9: no index by stream, which cost a random page per call under load).
    this.#recent = database.prepare<[string, number], ToolCallRow>(
      `SELECT ${COLUMNS} FROM (
         SELECT row_id, ${COLUMNS} FROM tool_calls WHERE stream_id = ? ORDER BY started_at DESC, row_id DESC LIMIT ?
       ) ORDER BY started_at, row_id`,
    );
    this.#deleteBefore = database.prepare<[number]>('DELETE FROM tool_calls WHERE started_at < ?');
  }

  record(entry: ToolCallRecord): void {
    const argumentsText = toJsonColumn(entry.arguments);
    if (argumentsText === null && entry.arguments !== null && entry.arguments !== undefined) {
      this.#logger.warn({ streamId: entry.streamId, callId: entry.callId, tool: entry.toolName }, 'tool call arguments that JSON cannot represent were stored as null');
    }
    try {
      this.#insert.run({
        stream_id: entry.streamId,
        call_id: entry.callId,
        tool_name: entry.toolName,
        arguments: argumentsText,
        success: entry.success ? 1 : 0,
        observation: entry.observation,
        error_message: entry.errorMessage,
        started_at: entry.startedAt,
        duration_ms: entry.durationMs,
      });
    } catch (error) {
      throw writeError(this.#file, `log tool call ${entry.callId} (${entry.toolName}) of stream ${entry.streamId}`, error);
    }
  }

  recent(streamId: string, limit: number): ToolCallRecord[] {
    checkLimit('ToolCallLog.recent', limit);
    return this.#recent.all(streamId, limit).map(toRecord);
  }

  deleteBefore(epochMs: number): number {
    try {
      return this.#deleteBefore.run(epochMs).changes;
    } catch (error) {
      throw writeError(this.#file, `delete the tool calls older than ${new Date(epochMs).toISOString()}`, error);
    }
  }
}

function toRecord(row: ToolCallRow): ToolCallRecord {
  return {
    streamId: row.stream_id ?? '',
    callId: row.call_id ?? '',
    toolName: row.tool_name ?? '',
    arguments: asPlainObject(fromJsonColumn(row.arguments)),
    success: row.success === 1,
    observation: row.observation ?? '',
    errorMessage: row.error_message ?? '',
    startedAt: row.started_at ?? 0,
    durationMs: row.duration_ms ?? 0,
  };
}

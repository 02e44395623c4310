import type BetterSqlite3 from 'better-sqlite3';
import type { ChatMuteRecord, ChatMuteRepository } from '../chat-mute-repository.js';
import { writeError } from './write-error.js';

interface ChatMuteRow {
  stream_id: string;
  until_ms: number;
  muted_by: string | null;
  created_at: number;
}

const COLUMNS = 'stream_id, until_ms, muted_by, created_at';

function recordOf(row: ChatMuteRow): ChatMuteRecord {
  return { streamId: row.stream_id, untilMs: row.until_ms, mutedBy: row.muted_by, createdAt: row.created_at };
}

/** `ChatMuteRepository` on the `chat_mutes` table. */
export class SqliteChatMuteRepository implements ChatMuteRepository {
  readonly #file: string;
  readonly #put: BetterSqlite3.Statement<[ChatMuteRow]>;
  readonly #delete: BetterSqlite3.Statement<[string]>;
  readonly #get: BetterSqlite3.Statement<[string], ChatMuteRow>;
  readonly #listActive: BetterSqlite3.Statement<[number], ChatMuteRow>;
  readonly #deleteExpired: BetterSqlite3.Statement<[number]>;

  constructor(database: BetterSqlite3.Database) {
    this.#file = database.name;
    this.#put = database.prepare(
      `INSERT INTO chat_mutes (${COLUMNS}) VALUES (@stream_id, @until_ms, @muted_by, @created_at)
       ON CONFLICT (stream_id) DO UPDATE SET until_ms = excluded.until_ms, muted_by = excluded.muted_by, created_at = excluded.created_at`,
    );
    this.#delete = database.prepare('DELETE FROM chat_mutes WHERE stream_id = ?');
    this.#get = database.prepare(`SELECT ${COLUMNS} FROM chat_mutes WHERE stream_id = ?`);
    this.#listActive = database.prepare(`SELECT ${COLUMNS} FROM chat_mutes WHERE until_ms > ? ORDER BY stream_id`);
    this.#deleteExpired = database.prepare('DELETE FROM chat_mutes WHERE until_ms <= ?');
  }

  put(record: ChatMuteRecord): void {
    try {
      this.#put.run({ stream_id: record.streamId, until_ms: record.untilMs, muted_by: record.mutedBy, created_at: record.createdAt });
    } catch (error) {
      throw writeError(this.#file, `store the mute of stream ${record.streamId}`, error);
    }
  }

  delete(streamId: string): boolean {
    try {
      return this.#delete.run(streamId).changes > 0;
    } catch (error) {
      throw writeError(this.#file, `delete the mute of stream ${streamId}`, error);
    }
  }

  get(streamId: string): ChatMuteRecord | undefined {
    const row = this.#get.get(streamId);
    return row === undefined ? undefined : recordOf(row);
  }

  listActive(nowMs: number): ChatMuteRecord[] {
    return this.#listActive.all(nowMs).map(recordOf);
  }

  deleteExpired(nowMs: number): number {
    try {
      return this.#deleteExpired.run(nowMs).changes;
    } catch (error) {
      throw writeError(this.#file, 'delete the mutes that ended', error);
    }
  }
}

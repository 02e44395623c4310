import type BetterSqlite3 from 'better-sqlite3';
import type { NewOutboxEntry, OutboxEntry, OutboxRepository } from '../outbox-repository.js';
import { fromJsonColumn } from './from-json-column.js';
import { writeError } from './write-error.js';

interface OutboxRow {
  row_id: number;
  stream_id: string;
  account: string | null;
  message: string;
  delivery: string;
  created_at: number;
  due_at: number;
  deadline_at: number;
  attempts: number;
  last_error: string | null;
  in_doubt_at: number | null;
}

const COLUMNS = 'row_id, stream_id, account, message, delivery, created_at, due_at, deadline_at, attempts, last_error, in_doubt_at';

/** `OutboxRepository` on the `outbox` table (migration 4). */
export class SqliteOutboxRepository implements OutboxRepository {
  readonly #file: string;
  readonly #add: BetterSqlite3.Statement<[Omit<OutboxRow, 'row_id' | 'attempts' | 'last_error'>]>;
  readonly #inDoubt: BetterSqlite3.Statement<[number | null, string | null, number]>;
  readonly #all: BetterSqlite3.Statement<[], OutboxRow>;
  readonly #forStream: BetterSqlite3.Statement<[string], OutboxRow>;
  readonly #streams: BetterSqlite3.Statement<[], { stream_id: string }>;
  readonly #get: BetterSqlite3.Statement<[number], OutboxRow>;
  readonly #fail: BetterSqlite3.Statement<[string, number]>;
  readonly #remove: BetterSqlite3.Statement<[number]>;
  readonly #count: BetterSqlite3.Statement<[], { count: number }>;
  readonly #head: BetterSqlite3.Statement<[string], OutboxRow>;
  readonly #countFor: BetterSqlite3.Statement<[string], { count: number }>;

  constructor(database: BetterSqlite3.Database) {
    this.#file = database.name;
    this.#add = database.prepare(
      `INSERT INTO outbox (stream_id, account, message, delivery, created_at, due_at, deadline_at, in_doubt_at)
       VALUES (@stream_id, @account, @message, @delivery, @created_at, @due_at, @deadline_at, @in_doubt_at)`,
    );
    this.#all = database.prepare(`SELECT ${COLUMNS} FROM outbox ORDER BY row_id`);
    this.#forStream = database.prepare(`SELECT ${COLUMNS} FROM outbox WHERE stream_id = ? ORDER BY row_id`);
    this.#streams = database.prepare('SELECT stream_id FROM outbox GROUP BY stream_id ORDER BY MIN(row_id)');
    this.#get = database.prepare(`SELECT ${COLUMNS} FROM outbox WHERE row_id = ?`);
    this.#fail = database.prepare('UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE row_id = ?');
    this.#remove = database.prepare('DELETE FROM outbox WHERE row_id = ?');
    this.#inDoubt = database.prepare('UPDATE outbox SET in_doubt_at = ?, last_error = COALESCE(?, last_error) WHERE row_id = ?');
    this.#count = database.prepare('SELECT COUNT(*) AS count FROM outbox');
    this.#head = database.prepare(`SELECT ${COLUMNS} FROM outbox WHERE stream_id = ? ORDER BY row_id LIMIT 1`);
    this.#countFor = database.prepare('SELECT COUNT(*) AS count FROM outbox WHERE stream_id = ?');
  }

  add(entry: NewOutboxEntry): number {
    try {
      const result = this.#add.run({
        stream_id: entry.streamId,
        account: entry.account,
        message: JSON.stringify(entry.message),
        delivery: JSON.stringify(entry.delivery),
        created_at: entry.createdAt,
        due_at: entry.dueAt,
        deadline_at: entry.deadlineAt,
        in_doubt_at: entry.inDoubtAt ?? null,
      });
      return Number(result.lastInsertRowid);
    } catch (error) {
      throw writeError(this.#file, `queue a reply for stream ${entry.streamId}`, error);
    }
  }

  all(): OutboxEntry[] {
    return this.#all.all().map(toEntry);
  }

  forStream(streamId: string): OutboxEntry[] {
    return this.#forStream.all(streamId).map(toEntry);
  }

  headOf(streamId: string): OutboxEntry | undefined {
    const row = this.#head.get(streamId);
    return row === undefined ? undefined : toEntry(row);
  }

  countFor(streamId: string): number {
    return this.#countFor.get(streamId)!.count;
  }

  streams(): string[] {
    return this.#streams.all().map((row) => row.stream_id);
  }

  get(rowId: number): OutboxEntry | undefined {
    const row = this.#get.get(rowId);
    return row === undefined ? undefined : toEntry(row);
  }

  recordFailure(rowId: number, reason: string): void {
    try {
      this.#fail.run(reason, rowId);
    } catch (error) {
      throw writeError(this.#file, `record a failed delivery of outbox row ${rowId}`, error);
    }
  }

  setInDoubt(rowId: number, at: number | null, reason?: string): void {
    try {
      this.#inDoubt.run(at, reason ?? null, rowId);
    } catch (error) {
      throw writeError(this.#file, `mark outbox row ${rowId} in doubt`, error);
    }
  }

  remove(rowId: number): boolean {
    try {
      return this.#remove.run(rowId).changes > 0;
    } catch (error) {
      throw writeError(this.#file, `remove outbox row ${rowId}`, error);
    }
  }

  count(): number {
    return this.#count.get()!.count;
  }
}

function toEntry(row: OutboxRow): OutboxEntry {
  return {
    rowId: row.row_id,
    streamId: row.stream_id,
    account: row.account,
    message: fromJsonColumn(row.message),
    delivery: fromJsonColumn(row.delivery),
    createdAt: row.created_at,
    dueAt: row.due_at,
    deadlineAt: row.deadline_at,
    attempts: row.attempts,
    lastError: row.last_error,
    inDoubtAt: row.in_doubt_at,
  };
}

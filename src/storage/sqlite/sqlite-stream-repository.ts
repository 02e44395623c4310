import type BetterSqlite3 from 'better-sqlite3';
import { InvalidArgumentError } from '../../kernel/errors/invalid-argument-error.js';
import type { StreamListOptions, StreamRecord, StreamRepository } from '../stream-repository.js';
import { checkLimit } from './check-limit.js';
import { writeError } from './write-error.js';

interface StreamRow {
  stream_id: string;
  platform: string;
  chat_type: 'private' | 'group';
  group_id: string | null;
  group_name: string | null;
  user_id: string | null;
  user_name: string | null;
  created_at: number;
  last_active_at: number;
  account: string | null;
}

const COLUMNS = 'stream_id, platform, chat_type, group_id, group_name, user_id, user_name, created_at, last_active_at, account';

/** `StreamRepository` on the `streams` table. */
export class SqliteStreamRepository implements StreamRepository {
  readonly #file: string;
  readonly #upsert: BetterSqlite3.Statement<[StreamRow]>;
  readonly #get: BetterSqlite3.Statement<[string], StreamRow>;
  readonly #list: BetterSqlite3.Statement<[{ limit: number; activeSince: number | null }], StreamRow>;
  readonly #touch: BetterSqlite3.Statement<[number, string]>;
  readonly #claim: BetterSqlite3.Statement<[string, string]>;

  constructor(database: BetterSqlite3.Database) {
    this.#file = database.name;
    this.#upsert = database.prepare<StreamRow>(
      `INSERT INTO streams (${COLUMNS})
       VALUES (@stream_id, @platform, @chat_type, @group_id, @group_name, @user_id, @user_name, @created_at, @last_active_at, @account)
       ON CONFLICT (stream_id) DO UPDATE SET
         group_name = COALESCE(excluded.group_name, streams.group_name),
         user_name = COALESCE(excluded.user_name, streams.user_name),
         last_active_at = excluded.last_active_at,
         account = COALESCE(streams.account, excluded.account)`,
    );
    this.#get = database.prepare<[string], StreamRow>(`SELECT ${COLUMNS} FROM streams WHERE stream_id = ?`);
    this.#list = database.prepare<{ limit: number; activeSince: number | null }, StreamRow>(
      `SELECT ${COLUMNS} FROM streams
       WHERE @activeSince IS NULL OR last_active_at >= @activeSince
       ORDER BY last_active_at DESC, stream_id
       LIMIT @limit`,
    );
    this.#touch = database.prepare<[number, string]>('UPDATE streams SET last_active_at = MAX(last_active_at, ?) WHERE stream_id = ?');
    this.#claim = database.prepare<[string, string]>('UPDATE streams SET account = ? WHERE stream_id = ? AND account IS NULL');
  }

  claim(streamId: string, account: string): boolean {
    try {
      return this.#claim.run(account, streamId).changes === 1;
    } catch (error) {
      throw writeError(this.#file, `give stream ${streamId} to account ${account}`, error);
    }
  }

  upsert(record: StreamRecord): void {
    if (record.chatType !== 'private' && record.chatType !== 'group') {
      throw new InvalidArgumentError('StreamRepository.upsert', 'chatType', record.chatType, "'private' or 'group'");
    }
    try {
      this.#upsert.run({
        stream_id: record.streamId,
        platform: record.platform,
        chat_type: record.chatType,
        group_id: record.groupId,
        group_name: record.groupName,
        user_id: record.userId,
        user_name: record.userName,
        created_at: record.createdAt,
        last_active_at: record.lastActiveAt,
        account: record.account ?? null,
      });
    } catch (error) {
      throw writeError(this.#file, `store stream ${record.streamId}`, error);
    }
  }

  get(streamId: string): StreamRecord | undefined {
    const row = this.#get.get(streamId);
    return row === undefined ? undefined : toRecord(row);
  }

  list(options: StreamListOptions): StreamRecord[] {
    checkLimit('StreamRepository.list', options.limit);
    return this.#list.all({ limit: options.limit, activeSince: options.activeSince ?? null }).map(toRecord);
  }

  touch(streamId: string, at: number): void {
    try {
      this.#touch.run(at, streamId);
    } catch (error) {
      throw writeError(this.#file, `touch stream ${streamId}`, error);
    }
  }
}

function toRecord(row: StreamRow): StreamRecord {
  return {
    streamId: row.stream_id,
    platform: row.platform,
    chatType: row.chat_type,
    groupId: row.group_id,
    groupName: row.group_name,
    userId: row.user_id,
    userName: row.user_name,
    createdAt: row.created_at,
    lastActiveAt: row.last_active_at,
    account: row.account,
  };
}

import { statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { DataFolderLock } from './data-folder-lock.js';
import { StorageError } from './errors/storage-error.js';
import type { MessageRepository } from './message-repository.js';
import type { AccountActivityReader } from './account-activity.js';
import { SqliteAccountActivity } from './sqlite/sqlite-account-activity.js';
import { SqliteMessageRepository } from './sqlite/sqlite-message-repository.js';
import { SqliteStreamRepository } from './sqlite/sqlite-stream-repository.js';
import { SqliteStreamStateRepository } from './sqlite/sqlite-stream-state-repository.js';
import { SqliteToolCallLog } from './sqlite/sqlite-tool-call-log.js';
import { SqliteMcpUsageRepository } from './sqlite/sqlite-mcp-usage-repository.js';
import { SqliteMediaCacheRepository } from './sqlite/sqlite-media-cache-repository.js';
import type { McpUsageRepository } from './mcp-usage-repository.js';
import type { MediaCacheRepository } from './media-cache-repository.js';
import type { ModelCallLog } from './model-call-log.js';
import { SqliteModelCallLog } from './sqlite/sqlite-model-call-log.js';
import type { OutboxRepository } from './outbox-repository.js';
import type { ScheduleRepository } from './schedule-repository.js';
import { SqliteScheduleRepository } from './sqlite/sqlite-schedule-repository.js';
import type { ChatMuteRepository } from './chat-mute-repository.js';
import { SqliteChatMuteRepository } from './sqlite/sqlite-chat-mute-repository.js';
import type { SentNoticeRepository } from './sent-notice-repository.js';
import { SqliteSentNoticeRepository } from './sqlite/sqlite-sent-notice-repository.js';
import { SqliteOutboxRepository } from './sqlite/sqlite-outbox-repository.js';
import type { StreamRepository } from './stream-repository.js';
import type { StreamStateRepository } from './stream-state-repository.js';
import type { ToolCallLog } from './tool-call-log.js';

/** `PRAGMA auto_vacuum` of a file whose free pages are released by `incremental_vacuum`. */
const INCREMENTAL_AUTO_VACUUM = 2;

/**
 * An open database and its repositories. Get one from `openDatabase`, which configures the
 * connection and migrates the schema first. Callers use the repository interfaces only, so
 * another engine can stand behind them.
 */
export class Database {
  /** Path of the database file. */
  readonly file: string;
  /** The conversations (one private chat or one group, per platform and account). */
  readonly streams: StreamRepository;
  /** Every message received and sent, with the unread flags chatters work from. */
  readonly messages: MessageRepository;
  /** Where each stream's loop stands (waits, cooldowns), so a restart resumes them. */
  readonly streamStates: StreamStateRepository;
  /** Finished tool calls, for the prompt's tool history and the web console. */
  readonly toolCalls: ToolCallLog;
  /** MCP tool calls counted per day, for the daily quotas. */
  readonly mcpUsage: McpUsageRepository;
  /** Finished image and video descriptions by content key, so nothing is described twice. */
  readonly mediaCache: MediaCacheRepository;
  /** Model requests and their token use, behind the web console's usage charts and the budgets. */
  readonly modelCalls: ModelCallLog;
  /** Replies waiting for the platform's acknowledgement. */
  readonly outbox: OutboxRepository;
  /** Streams and messages counted per bot account (the web console's Accounts table). */
  readonly accountActivity: AccountActivityReader;
  /** Plugins' persisted jobs (`ctx.schedule`) and their last runs. */
  readonly schedules: ScheduleRepository;
  /** Chats muted by an owner's `/mute`, until when. */
  readonly chatMutes: ChatMuteRepository;
  /** Notices sent once (an owner told that a budget is spent today), so a restart does not repeat them. */
  readonly sentNotices: SentNoticeRepository;
  readonly #handle: BetterSqlite3.Database;
  readonly #logger: Logger;
  readonly #lock: DataFolderLock | undefined;

  /**
   * Wraps a configured, migrated connection; `openDatabase` is the way to get one. `lock`,
   * the lock of the file's folder, is released by `close()`.
   */
  constructor(handle: BetterSqlite3.Database, logger: Logger, lock?: DataFolderLock) {
    this.#handle = handle;
    this.#logger = logger;
    this.#lock = lock;
    this.file = handle.name;
    this.streams = new SqliteStreamRepository(handle);
    this.messages = new SqliteMessageRepository(handle, logger);
    this.streamStates = new SqliteStreamStateRepository(handle);
    this.toolCalls = new SqliteToolCallLog(handle, logger);
    this.mcpUsage = new SqliteMcpUsageRepository(handle);
    this.mediaCache = new SqliteMediaCacheRepository(handle);
    this.modelCalls = new SqliteModelCallLog(handle);
    this.outbox = new SqliteOutboxRepository(handle);
    this.accountActivity = new SqliteAccountActivity(handle);
    this.schedules = new SqliteScheduleRepository(handle);
    this.chatMutes = new SqliteChatMuteRepository(handle);
    this.sentNotices = new SqliteSentNoticeRepository(handle);
  }

  /** False once `close()` has run. */
  get isOpen(): boolean {
    return this.#handle.open;
  }

  /**
   * Runs `fn` in one transaction: every repository write inside it is committed together,
   * or rolled back together when `fn` throws (the error is rethrown). `fn` must be
   * synchronous; a nested call becomes a savepoint.
   */
  transaction<T>(fn: () => T): T {
    if (!this.#handle.open) throw new StorageError(this.file, 'cannot start a transaction: the database is closed');
    return this.#handle.transaction(fn)();
  }

  /** Bytes the database takes on disk: the file plus its `-wal` and `-shm` files; 0 for an in-memory database. */
  sizeBytes(): number {
    if (this.#handle.memory) return 0;
    let total = 0;
    for (const suffix of ['', '-wal', '-shm']) total += statSync(this.file + suffix, { throwIfNoEntry: false })?.size ?? 0;
    return total;
  }

  /**
   * Gives the space of deleted rows back to the file system, then empties the `-wal` file
   * (a `TRUNCATE` checkpoint). The first compaction of a file with free pages turns on
   * incremental auto-vacuum through one full `VACUUM`, which rewrites the file and blocks for
   * a time that follows its size; later ones run `incremental_vacuum`, whose cost follows the
   * free pages only. Must not run inside a transaction.
   */
  compact(): void {
    if (!this.#handle.open) throw new StorageError(this.file, 'cannot compact it: the database is closed');
    try {
      if ((this.#handle.pragma('freelist_count', { simple: true }) as number) > 0) {
        if (this.#handle.pragma('auto_vacuum', { simple: true }) === INCREMENTAL_AUTO_VACUUM) {
          this.#handle.pragma('incremental_vacuum');
        } else {
          this.#handle.pragma('auto_vacuum = INCREMENTAL');
          this.#handle.exec('VACUUM');
        }
      }
      this.#handle.pragma('wal_checkpoint(TRUNCATE)');
    } catch (error) {
      throw new StorageError(this.file, `cannot compact it: ${describeError(error)}`, { cause: error });
    }
  }

  /** Closes the connection and releases the folder's lock. Safe to call more than once. */
  close(): void {
    if (!this.#handle.open) return;
    this.#handle.close();
    this.#lock?.release();
    this.#logger.debug({ file: this.file }, 'closed the database');
  }
}

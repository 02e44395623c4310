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

const COMMITTED = Promise.resolve();

/** The statements a transaction and a savepoint take, prepared once. */
interface TransactionStatements {
  begin: BetterSqlite3.Statement;
  commit: BetterSqlite3.Statement;
  rollback: BetterSqlite3.Statement;
  savepoint: BetterSqlite3.Statement;
  release: BetterSqlite3.Statement;
  rollbackTo: BetterSqlite3.Statement;
}

/** The writes waiting for one commit. */
interface WriteBatch {
  readonly committed: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  /** Why it was not stored, once that is known. */
  failure?: StorageError;
  readonly timer: NodeJS.Immediate;
}

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
  readonly #statements: TransactionStatements;
  /** The open write batch (see `batch`), committed at the next `setImmediate`. */
  #batch: WriteBatch | undefined;
  /** The last batch that failed, until the next one opens: `committed()` right after a write reports it. */
  #failed: WriteBatch | undefined;
  /** How many `transaction` / `batch` functions are running (nested ones are savepoints). */
  #depth = 0;

  /**
   * Wraps a configured, migrated connection; `openDatabase` is the way to get one. `lock`,
   * the lock of the file's folder, is released by `close()`.
   */
  constructor(handle: BetterSqlite3.Database, logger: Logger, lock?: DataFolderLock) {
    this.#handle = handle;
    this.#logger = logger;
    this.#lock = lock;
    this.file = handle.name;
    this.#statements = {
      begin: handle.prepare('BEGIN'),
      commit: handle.prepare('COMMIT'),
      rollback: handle.prepare('ROLLBACK'),
      savepoint: handle.prepare('SAVEPOINT moonglass_write'),
      release: handle.prepare('RELEASE moonglass_write'),
      rollbackTo: handle.prepare('ROLLBACK TO moonglass_write'),
    };
    this.streams = new SqliteStreamRepository(handle);
    this.messages = new SqliteMessageRepository(handle, logger);
    // A loop's state is batched too: a crash before the commit resumes the stream from its previous state.
    const streamStates = new SqliteStreamStateRepository(handle);
    this.streamStates = {
      get: (streamId) => streamStates.get(streamId),
      set: (record) => this.#batchOne(() => streamStates.set(record)),
      all: () => streamStates.all(),
    };
    // The diagnostic logs go into the write batch: one row per call, and nothing waits on it.
    const toolCalls = new SqliteToolCallLog(handle, logger);
    this.toolCalls = {
      record: (entry) => this.#batchOne(() => toolCalls.record(entry)),
      recent: (streamId, limit) => toolCalls.recent(streamId, limit),
      deleteBefore: (epochMs) => toolCalls.deleteBefore(epochMs),
    };
    this.mcpUsage = new SqliteMcpUsageRepository(handle);
    this.mediaCache = new SqliteMediaCacheRepository(handle);
    const modelCalls = new SqliteModelCallLog(handle);
    this.modelCalls = {
      record: (entry) => this.#batchOne(() => modelCalls.record(entry)),
      dailyUsage: (sinceMs) => modelCalls.dailyUsage(sinceMs),
      deleteBefore: (epochMs) => modelCalls.deleteBefore(epochMs),
    };
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
   * synchronous; a nested call becomes a savepoint. When it returns, its writes are durable:
   * an open write batch (`batch`) is committed with them.
   */
  transaction<T>(fn: () => T): T {
    if (!this.#handle.open) throw new StorageError(this.file, 'cannot start a transaction: the database is closed');
    const { begin, commit, rollback, savepoint, release, rollbackTo } = this.#statements;
    if (this.#depth > 0) return this.#atomically(fn, savepoint, release, rollbackTo); // nested: committed with its outer call
    if (this.#batch === undefined) return this.#atomically(fn, begin, commit, rollback);
    const batch = this.#batch;
    const value = this.batch(fn);
    this.#commitBatch();
    if (batch.failure !== undefined) throw batch.failure;
    return value;
  }

  /**
   * Runs `fn` now, atomically (a savepoint: when it throws, its writes are undone and the
   * error rethrown), inside the open write batch: one transaction that every batched write
   * of this turn of the event loop joins, committed when `setImmediate` fires (or sooner, by
   * a `transaction`). Reads on this connection see the writes at once; other connections and
   * a crash see them only once committed, which `committed()` tells.
   *
   * This is group commit: at load, the turns of many conversations share one commit instead
   * of five each (a commit, not a statement, is what costs: it appends every page it changed
   * to the WAL). Use it where what must be durable is awaited before anything leaves the
   * process: the inbound message before its chatter runs, the outbox row before its send.
   */
  batch<T>(fn: () => T): T {
    if (!this.#handle.open) throw new StorageError(this.file, 'cannot write: the database is closed');
    const { savepoint, release, rollbackTo } = this.#statements;
    if (this.#depth > 0) return this.#atomically(fn, savepoint, release, rollbackTo); // nested: committed with its outer call
    const batch = this.#openBatch();
    try {
      return this.#atomically(fn, savepoint, release, rollbackTo);
    } finally {
      // SQLite ends the whole transaction on some errors (a full disk, an I/O error): then
      // every write the batch held so far is lost, and `committed()` says so.
      if (this.#batch === batch && !this.#handle.inTransaction) this.#failBatch(batch, new StorageError(this.file, 'a write failed and SQLite rolled back the batch it was in'));
    }
  }

  /**
   * `batch` for a function that runs exactly one write statement: no savepoint around it, since
   * SQLite undoes a failed statement by itself (SAVEPOINT and RELEASE were two of the three
   * statements of each diagnostic log row and loop state, issue 20).
   */
  #batchOne<T>(fn: () => T): T {
    if (!this.#handle.open) throw new StorageError(this.file, 'cannot write: the database is closed');
    if (this.#depth > 0) return fn(); // inside a transaction or batch function: its savepoint covers it
    const batch = this.#openBatch();
    try {
      return fn();
    } finally {
      if (this.#batch === batch && !this.#handle.inTransaction) this.#failBatch(batch, new StorageError(this.file, 'a write failed and SQLite rolled back the batch it was in'));
    }
  }

  /**
   * Resolves once every write batched so far is committed (at once when none is waiting);
   * rejects with a `StorageError` when their batch could not be committed: then none of its
   * writes is stored. Ask right after the writes, in the same synchronous run: a failed
   * batch is reported until the next batch opens.
   */
  committed(): Promise<void> {
    return (this.#batch ?? this.#failed)?.committed ?? COMMITTED;
  }

  #atomically<T>(fn: () => T, begin: BetterSqlite3.Statement, end: BetterSqlite3.Statement, undo: BetterSqlite3.Statement): T {
    begin.run();
    this.#depth += 1;
    try {
      const value = fn();
      if (value instanceof Promise) throw new TypeError('a transaction function cannot return a promise: its writes must all happen before it returns');
      end.run();
      return value;
    } catch (error) {
      if (this.#handle.inTransaction) {
        undo.run();
        if (undo === this.#statements.rollbackTo) end.run();
      }
      throw error;
    } finally {
      this.#depth -= 1;
    }
  }

  #openBatch(): WriteBatch {
    if (this.#batch !== undefined) return this.#batch;
    if (this.#handle.inTransaction) throw new StorageError(this.file, 'cannot open a write batch: a transaction begun outside this Database is open');
    this.#statements.begin.run();
    this.#failed = undefined;
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const committed = new Promise<void>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    // Whoever awaits it hears of a failure; nobody awaiting must not crash the process (it is logged).
    committed.catch(() => undefined);
    const batch: WriteBatch = { committed, resolve, reject, timer: setImmediate(() => this.#commitBatch()) };
    this.#batch = batch;
    return batch;
  }

  #commitBatch(): void {
    const batch = this.#batch;
    if (batch === undefined) return;
    this.#batch = undefined;
    clearImmediate(batch.timer);
    if (!this.#handle.open || !this.#handle.inTransaction) {
      this.#failBatch(batch, new StorageError(this.file, this.#handle.open ? 'the write batch was rolled back before its commit' : 'the database closed before the write batch was committed'));
      return;
    }
    try {
      this.#statements.commit.run();
    } catch (error) {
      if (this.#handle.inTransaction) this.#statements.rollback.run();
      this.#failBatch(batch, new StorageError(this.file, `cannot commit a write batch: ${describeError(error)}`, { cause: error }));
      return;
    }
    batch.resolve();
  }

  #failBatch(batch: WriteBatch, error: StorageError): void {
    if (this.#batch === batch) {
      this.#batch = undefined;
      clearImmediate(batch.timer);
    }
    batch.failure = error;
    this.#failed = batch;
    this.#logger.error({ file: this.file, error: error.message }, 'a batch of writes was not stored; the messages and replies in it are reported by their senders');
    batch.reject(error);
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
    this.#commitBatch();
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
    this.#commitBatch();
    this.#handle.close();
    this.#lock?.release();
    this.#logger.debug({ file: this.file }, 'closed the database');
  }
}

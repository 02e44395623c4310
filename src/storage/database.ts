import type BetterSqlite3 from 'better-sqlite3';
import type { Logger } from '../kernel/logger/logger.js';
import { StorageError } from './errors/storage-error.js';
import type { MessageRepository } from './message-repository.js';
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
import { SqliteOutboxRepository } from './sqlite/sqlite-outbox-repository.js';
import type { StreamRepository } from './stream-repository.js';
import type { StreamStateRepository } from './stream-state-repository.js';
import type { ToolCallLog } from './tool-call-log.js';

/**
 * An open database and its repositories. Get one from `openDatabase`, which configures the
 * connection and migrates the schema first. Callers use the repository interfaces only, so
 * another engine can stand behind them.
 */
export class Database {
  /** Path of the database file. */
  readonly file: string;
  readonly streams: StreamRepository;
  readonly messages: MessageRepository;
  readonly streamStates: StreamStateRepository;
  readonly toolCalls: ToolCallLog;
  readonly mcpUsage: McpUsageRepository;
  readonly mediaCache: MediaCacheRepository;
  readonly modelCalls: ModelCallLog;
  /** Replies waiting for the platform's acknowledgement. */
  readonly outbox: OutboxRepository;
  readonly #handle: BetterSqlite3.Database;
  readonly #logger: Logger;

  /** Wraps a configured, migrated connection; `openDatabase` is the way to get one. */
  constructor(handle: BetterSqlite3.Database, logger: Logger) {
    this.#handle = handle;
    this.#logger = logger;
    this.file = handle.name;
    this.streams = new SqliteStreamRepository(handle);
    this.messages = new SqliteMessageRepository(handle, logger);
    this.streamStates = new SqliteStreamStateRepository(handle);
    this.toolCalls = new SqliteToolCallLog(handle, logger);
    this.mcpUsage = new SqliteMcpUsageRepository(handle);
    this.mediaCache = new SqliteMediaCacheRepository(handle);
    this.modelCalls = new SqliteModelCallLog(handle);
    this.outbox = new SqliteOutboxRepository(handle);
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

  /** Closes the connection. Safe to call more than once. */
  close(): void {
    if (!this.#handle.open) return;
    this.#handle.close();
    this.#logger.debug({ file: this.file }, 'closed the database');
  }
}

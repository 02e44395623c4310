import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createMemoryLogger, type LogRecord } from '../../src/kernel/logger/memory-logger.js';
import type { Database } from '../../src/storage/database.js';
import type { MessageRecord } from '../../src/storage/message-repository.js';
import { openDatabase } from '../../src/storage/open-database.js';
import type { StreamRecord } from '../../src/storage/stream-repository.js';
import { useTempDir } from '../support/temp-dir.js';

/** An opener of real SQLite files in fresh temporary folders; every database is closed after the test. */
export function useTestDatabases(): {
  /** A new folder for database files. */
  folder: () => string;
  /** Opens (or reopens) `file`, logging into `records`. */
  open: (file: string) => Database;
  /** Opens a fresh `moonglass.db` in a new folder. */
  fresh: () => { database: Database; file: string };
  records: LogRecord[];
} {
  const tempDir = useTempDir();
  const opened: Database[] = [];
  const { logger, records } = createMemoryLogger();
  afterEach(() => {
    while (opened.length > 0) opened.pop()!.close();
    records.length = 0;
  });
  const open = (file: string): Database => {
    const database = openDatabase({ file, logger });
    opened.push(database);
    return database;
  };
  return {
    folder: tempDir,
    open,
    fresh: () => {
      const file = join(tempDir(), 'moonglass.db');
      return { database: open(file), file };
    },
    records,
  };
}

/** A group stream record; `overrides` replace fields. */
export function streamRecord(overrides: Partial<StreamRecord> = {}): StreamRecord {
  return {
    streamId: 'stream-a',
    platform: 'qq',
    chatType: 'group',
    groupId: '10001',
    groupName: '月璃的小窝',
    userId: null,
    userName: null,
    createdAt: 1_700_000_000,
    lastActiveAt: 1_700_000_000,
    account: null,
    ...overrides,
  };
}

/** An inbound group message of `stream-a`; `overrides` replace fields. */
export function messageRecord(overrides: Partial<MessageRecord> = {}): MessageRecord {
  const messageId = overrides.messageId ?? 'm1';
  return {
    messageId,
    streamId: 'stream-a',
    direction: 'inbound',
    time: 1_700_000_100,
    replyTo: null,
    content: `text of ${messageId}`,
    processedPlainText: `text of ${messageId}`,
    messageType: 'text',
    senderId: '42',
    senderName: '小明',
    senderCard: null,
    senderRole: 'member',
    platform: 'qq',
    chatType: 'group',
    raw: { message_id: messageId },
    extra: { group_id: '10001' },
    ...overrides,
  };
}

/**
 * Rows of `table` as a second connection sees them: what is committed, what a crash would
 * leave on disk (the database's own connection also sees its open write batch).
 */
export function countOnDisk(file: string, table: string): number {
  const connection = new BetterSqlite3(file, { readonly: true });
  try {
    return (connection.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    connection.close();
  }
}

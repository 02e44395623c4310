import BetterSqlite3 from 'better-sqlite3';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { Database } from '../../src/storage/database.js';
import { StorageError } from '../../src/storage/errors/storage-error.js';
import { countOnDisk, messageRecord, streamRecord, useTestDatabases } from './storage-fixtures.js';

// Group commit (`Database.batch`): the writes of one turn of the event loop share one commit.
// A second connection stands for what a crash leaves on disk: it sees only committed writes.

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));


describe('Database.batch (group commit)', () => {
  const databases = useTestDatabases();

  it('shows batched writes on its own connection at once, and on disk only once committed() resolves', async () => {
    const { database, file } = databases.fresh();
    database.batch(() => database.streams.upsert(streamRecord()));
    expect(database.streams.get('stream-a')).toBeDefined();
    expect(countOnDisk(file, 'streams')).toBe(0);
    await database.committed();
    expect(countOnDisk(file, 'streams')).toBe(1);
  });

  it('commits the writes of one turn together: 200 of them grow the WAL by a few pages, not by 200 commits', async () => {
    const batched = databases.fresh();
    const separate = databases.fresh();
    for (const { database } of [batched, separate]) database.transaction(() => database.streams.upsert(streamRecord()));
    const walBytes = (file: string) => statSync(`${file}-wal`).size;
    const before = { batched: walBytes(batched.file), separate: walBytes(separate.file) };
    for (let index = 0; index < 200; index += 1) {
      const message = messageRecord({ messageId: `m${index}` });
      batched.database.batch(() => batched.database.messages.insertInbound(message));
      separate.database.transaction(() => separate.database.messages.insertInbound(message));
    }
    await batched.database.committed();
    const grown = { batched: walBytes(batched.file) - before.batched, separate: walBytes(separate.file) - before.separate };
    expect(grown.batched).toBeGreaterThan(0);
    expect(grown.batched * 20).toBeLessThan(grown.separate);
  });

  it('undoes only the write that threw; the rest of the batch is committed', async () => {
    const { database, file } = databases.fresh();
    database.batch(() => database.streams.upsert(streamRecord()));
    expect(() =>
      database.batch(() => {
        database.messages.insertInbound(messageRecord({ messageId: 'undone' }));
        throw new Error('a plugin bug');
      }),
    ).toThrow('a plugin bug');
    database.batch(() => database.messages.insertInbound(messageRecord({ messageId: 'kept' })));
    await database.committed();
    expect(countOnDisk(file, 'streams')).toBe(1);
    expect(countOnDisk(file, 'messages')).toBe(1);
    expect(database.messages.get('stream-a', 'inbound', 'kept')).toBeDefined();
    expect(database.messages.get('stream-a', 'inbound', 'undone')).toBeUndefined();
  });

  it('a transaction() commits the open batch with it: both are on disk when it returns', () => {
    const { database, file } = databases.fresh();
    database.batch(() => database.streams.upsert(streamRecord()));
    database.transaction(() => database.messages.insertInbound(messageRecord()));
    expect(countOnDisk(file, 'streams')).toBe(1);
    expect(countOnDisk(file, 'messages')).toBe(1);
  });

  it('close() commits what is batched', () => {
    const { database, file } = databases.fresh();
    database.batch(() => database.streams.upsert(streamRecord()));
    database.close();
    expect(countOnDisk(file, 'streams')).toBe(1);
  });

  it('a nested batch or transaction inside a batch is part of it (a savepoint), undone with it when it throws', async () => {
    const { database, file } = databases.fresh();
    expect(() =>
      database.batch(() => {
        database.streams.upsert(streamRecord());
        database.transaction(() => database.messages.insertInbound(messageRecord()));
        throw new Error('after the nested transaction');
      }),
    ).toThrow('after the nested transaction');
    await nextTurn();
    expect(countOnDisk(file, 'streams')).toBe(0);
    expect(countOnDisk(file, 'messages')).toBe(0);
  });

  it('when the disk is full, the write that does not fit throws a StorageError naming the file; SQLite drops its whole batch, and committed() says so', async () => {
    const { database: created, file } = databases.fresh();
    created.transaction(() => created.streams.upsert(streamRecord()));
    created.close();
    // A file that may not grow stands for a full disk (SQLite answers SQLITE_FULL); the limit
    // is a setting of the connection, so this test opens the migrated file on its own handle.
    const handle = new BetterSqlite3(file);
    const { logger, records } = createMemoryLogger();
    const database = new Database(handle, logger);
    try {
      database.batch(() => database.messages.insertInbound(messageRecord({ messageId: 'fits' })));
      handle.pragma(`max_page_count = ${handle.pragma('page_count', { simple: true }) as number}`);
      const big = messageRecord({ messageId: 'too-big', content: '满'.repeat(200_000) });
      expect(() => database.batch(() => database.messages.insertInbound(big))).toThrow(StorageError);
      const committed = database.committed();
      await expect(committed).rejects.toThrow(StorageError);
      await expect(committed).rejects.toThrow(file);
      expect(records.find((record) => record.level === 'error')?.msg).toContain('not stored');
      handle.pragma('max_page_count = 1073741823');
      // The next batch is a new one: it commits.
      database.batch(() => database.messages.insertInbound(messageRecord({ messageId: 'after' })));
      await expect(database.committed()).resolves.toBeUndefined();
      expect(countOnDisk(file, 'messages')).toBe(1);
    } finally {
      database.close();
    }
  });

  it('refuses a write after close with a StorageError', () => {
    const { database } = databases.fresh();
    database.close();
    expect(() => database.batch(() => undefined)).toThrow(/closed/);
  });
});


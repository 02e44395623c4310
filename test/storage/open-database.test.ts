import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/storage/database.js';
import { StorageError } from '../../src/storage/errors/storage-error.js';
import { openDatabase, WAL_AUTOCHECKPOINT_PAGES } from '../../src/storage/open-database.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { messageRecord, streamRecord, useTestDatabases } from './storage-fixtures.js';
import { catchError } from '../support/catch-error.js';

/** Reads one pragma through a separate raw connection. */
function pragmaOf(file: string, name: string): unknown {
  const raw = new BetterSqlite3(file, { readonly: true });
  try {
    return raw.pragma(name, { simple: true });
  } finally {
    raw.close();
  }
}


describe('openDatabase', () => {
  const databases = useTestDatabases();

  it('creates the file and its missing folders', () => {
    const file = join(databases.folder(), 'data', 'nested', 'moonglass.db');
    databases.open(file);
    expect(existsSync(file)).toBe(true);
  });

  it('puts the file in WAL journal mode', () => {
    const { file } = databases.fresh();
    expect(pragmaOf(file, 'journal_mode')).toBe('wal');
  });

  it('[issue 20] lets the WAL grow to ~40 MB before a commit checkpoints it, not SQLite\'s ~4 MB', () => {
    const { database, file } = databases.fresh();
    database.streams.upsert(streamRecord());
    // A few pages per commit (the row and its index entries), 400 commits: past SQLite's
    // default of 1,000 pages of WAL, well below ours.
    const text = 'x'.repeat(3_000);
    for (let index = 0; index < 400; index += 1) database.transaction(() => database.messages.insertInbound(messageRecord({ messageId: `m${index}`, content: text, processedPlainText: '' })));
    const walPages = statSync(`${file}-wal`).size / 4096;
    expect(walPages).toBeGreaterThan(1_200);
    expect(walPages).toBeLessThan(WAL_AUTOCHECKPOINT_PAGES);
    expect(database.messages.get('stream-a', 'inbound', 'm399')).toMatchObject({ content: text });
  });

  it('turns on foreign keys: a message for a stream never stored is refused with MG_STORAGE', () => {
    const { database, file } = databases.fresh();
    const error = catchError(() => database.messages.insertInbound(messageRecord({ streamId: 'nowhere' })));
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'MG_STORAGE', file });
    expect((error as Error).message).toMatch(/stream nowhere: the stream is not stored; upsert the stream first/);
    expect((error as Error).cause).toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
  });

  describe('when the file is not a SQLite database', () => {
    it('throws a StorageError naming the file, with the SQLite error as cause, and leaves the file as it was', () => {
      const file = join(databases.folder(), 'garbage.db');
      const bytes = randomBytes(8192);
      writeFileSync(file, bytes);
      const error = catchError(() => databases.open(file));
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code: 'MG_STORAGE', file });
      expect((error as Error).message).toContain(file);
      expect((error as Error).message).toMatch(/not a SQLite database/);
      expect((error as Error).cause).toMatchObject({ code: 'SQLITE_NOTADB' });
      expect(readFileSync(file).equals(bytes)).toBe(true);
    });
  });

  describe('when the path is a folder', () => {
    it('throws a StorageError naming it', () => {
      const folder = databases.folder();
      const error = catchError(() => databases.open(folder));
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code: 'MG_STORAGE', file: folder });
    });
  });

  describe('when its folder cannot be created', () => {
    it('throws a StorageError naming the file and the folder', () => {
      const blocker = join(databases.folder(), 'a-file');
      writeFileSync(blocker, 'not a folder');
      const file = join(blocker, 'moonglass.db');
      const error = catchError(() => databases.open(file));
      expect(error).toBeInstanceOf(StorageError);
      expect((error as Error).message).toContain(`cannot create its folder ${blocker}`);
      expect((error as StorageError).file).toBe(file);
    });
  });

  describe('close()', () => {
    it('can be called twice', () => {
      const { database } = databases.fresh();
      database.close();
      expect(() => database.close()).not.toThrow();
      expect(database.isOpen).toBe(false);
    });

    it('makes a later transaction throw a StorageError', () => {
      const { database } = databases.fresh();
      database.close();
      expect(() => database.transaction(() => 1)).toThrow(StorageError);
    });
  });

  describe('transaction()', () => {
    it('commits every write of the function together and returns its value', () => {
      const { database } = databases.fresh();
      const result = database.transaction(() => {
        database.streams.upsert(streamRecord());
        database.messages.insertInbound(messageRecord());
        return 'done';
      });
      expect(result).toBe('done');
      expect(database.messages.unread('stream-a')).toHaveLength(1);
    });

    it('rolls every write back when the function throws, and rethrows', () => {
      const { database } = databases.fresh();
      expect(() =>
        database.transaction(() => {
          database.streams.upsert(streamRecord());
          database.messages.insertInbound(messageRecord());
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(database.streams.get('stream-a')).toBeUndefined();
      expect(database.messages.unread('stream-a')).toEqual([]);
    });

    it('refuses an async function and keeps none of its writes', () => {
      const { database } = databases.fresh();
      expect(() =>
        database.transaction(async () => {
          database.streams.upsert(streamRecord());
        }),
      ).toThrow(/cannot return a promise/);
      expect(database.streams.get('stream-a')).toBeUndefined();
    });

    it('stores 1,000 messages in one transaction', () => {
      const { database } = databases.fresh();
      database.streams.upsert(streamRecord());
      database.transaction(() => {
        for (let index = 0; index < 1000; index += 1) {
          database.messages.insertInbound(messageRecord({ messageId: `m${index}`, time: 1_700_000_000 + index }));
        }
      });
      const unread = database.messages.unread('stream-a');
      expect(unread).toHaveLength(1000);
      expect(unread[0]!.messageId).toBe('m0');
      expect(unread[999]!.messageId).toBe('m999');
    });
  });

  describe('with a second connection to the same file', () => {
    it('sees what the first one committed, and not what it has yet to commit (WAL)', () => {
      const { database: writer, file } = databases.fresh();
      // A second openDatabase of the file is refused (the data folder lock): the reader
      // wraps a raw connection, as another process reading the file would be.
      const reader = new Database(new BetterSqlite3(file), createMemoryLogger().logger);
      try {
        writer.streams.upsert(streamRecord());
        expect(reader.streams.get('stream-a')).toMatchObject({ streamId: 'stream-a' });

        writer.transaction(() => {
          writer.messages.insertInbound(messageRecord({ messageId: 'pending' }));
          // The reader is not blocked by the open write transaction; it sees the last commit.
          expect(reader.messages.unread('stream-a')).toEqual([]);
        });
        expect(reader.messages.unread('stream-a').map((message) => message.messageId)).toEqual(['pending']);
      } finally {
        reader.close();
      }
    });
  });

  it('logs the migrations it applied', () => {
    const { logger, records } = createMemoryLogger();
    const file = join(databases.folder(), 'logged.db');
    openDatabase({ file, logger }).close();
    expect(records).toContainEqual(expect.objectContaining({ level: 'info', msg: 'applied a database migration', version: 1 }));
  });
});

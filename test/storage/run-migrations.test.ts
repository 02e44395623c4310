import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { StorageError } from '../../src/storage/errors/storage-error.js';
import { MIGRATIONS, type Migration } from '../../src/storage/migrations.js';
import { runMigrations } from '../../src/storage/run-migrations.js';
import { useTestDatabases } from './storage-fixtures.js';

/** A raw connection to `file`, closed before `fn` returns. */
function withRaw<T>(file: string, fn: (raw: BetterSqlite3.Database) => T): T {
  const raw = new BetterSqlite3(file);
  try {
    return fn(raw);
  } finally {
    raw.close();
  }
}

function tablesOf(raw: BetterSqlite3.Database): string[] {
  return raw
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name);
}

/** The versions this moonglass knows (1, 2, … in order), and the next one a test adds. */
const KNOWN = MIGRATIONS.map((migration) => migration.version);
const NEXT = KNOWN.length + 1;

describe('runMigrations', () => {
  const databases = useTestDatabases();

  it('the migrations create streams, messages, stream_state, tool_calls, mcp_usage and media_cache, and schema_migrations lists each version', () => {
    const { database, file } = databases.fresh();
    database.close();
    withRaw(file, (raw) => {
      expect(tablesOf(raw)).toEqual(['chat_mutes', 'mcp_usage', 'media_cache', 'messages', 'model_calls', 'outbox', 'schedules', 'schema_migrations', 'sent_notices', 'sqlite_sequence', 'stream_state', 'streams', 'tool_calls']);
      const rows = raw.prepare<[], { version: number; name: string; applied_at: string }>('SELECT * FROM schema_migrations').all();
      expect(rows).toEqual(MIGRATIONS.map((migration) => ({ version: migration.version, name: migration.name, applied_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })));
      const indexes = raw
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL")
        .all()
        .map((row) => row.name);
      expect(indexes).toEqual(expect.arrayContaining(['messages_unread', 'messages_stream_time']));
      expect(indexes).not.toContain('messages_stream_unread');
      // The unread queries find their rows through the partial index of unread messages only.
      const plan = (sql: string) => (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join('; ');
      expect(plan("SELECT * FROM messages WHERE stream_id = 's' AND unread = 1 ORDER BY time, row_id")).toContain('messages_unread');
      expect(plan('SELECT stream_id FROM messages WHERE unread = 1 GROUP BY stream_id ORDER BY MIN(time), stream_id')).toContain('messages_unread');
    });
  });

  it('[issue 20] the tool-call log is indexed by time only: a stream-keyed index put each row at a random page, 18% of a loaded commit', () => {
    const { database, file } = databases.fresh();
    database.close();
    withRaw(file, (raw) => {
      const indexes = raw
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tool_calls' AND sql IS NOT NULL")
        .all()
        .map((row) => row.name);
      expect(indexes).toEqual(['tool_calls_started']);
      const plan = (sql: string) => (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join('; ');
      // The retention's delete is a range of it; a stream's last calls walk it back from the newest, unsorted.
      expect(plan('DELETE FROM tool_calls WHERE started_at < 5')).toContain('tool_calls_started');
      const recent = plan("SELECT row_id FROM tool_calls WHERE stream_id = 's' ORDER BY started_at DESC, row_id DESC LIMIT 5");
      expect(recent).toContain('tool_calls_started');
      expect(recent).not.toContain('TEMP B-TREE');
    });
  });

  it('does not run again when the database is reopened', () => {
    const { database, file } = databases.fresh();
    database.close();
    databases.records.length = 0;
    databases.open(file).close();
    expect(databases.records.filter((record) => record.msg === 'applied a database migration')).toEqual([]);
    withRaw(file, (raw) => {
      expect(raw.prepare('SELECT COUNT(*) AS count FROM schema_migrations').get()).toEqual({ count: MIGRATIONS.length });
    });
  });

  it('applying the same list twice does nothing the second time', () => {
    const file = join(databases.folder(), 'twice.db');
    const { logger } = createMemoryLogger();
    withRaw(file, (raw) => {
      expect(runMigrations(raw, MIGRATIONS, logger)).toEqual(KNOWN);
      expect(runMigrations(raw, MIGRATIONS, logger)).toEqual([]);
    });
  });

  it('applies only the migrations a database is missing, each recorded with its name', () => {
    const file = join(databases.folder(), 'upgrade.db');
    const { logger } = createMemoryLogger();
    const second: Migration = { version: NEXT, name: 'add_notes', up: (raw) => raw.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY)') };
    withRaw(file, (raw) => {
      runMigrations(raw, MIGRATIONS, logger);
      expect(runMigrations(raw, [...MIGRATIONS, second], logger)).toEqual([NEXT]);
      expect(raw.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual([
        ...MIGRATIONS.map((migration) => ({ version: migration.version, name: migration.name })),
        { version: NEXT, name: 'add_notes' },
      ]);
    });
  });

  describe('when the database is stamped with a version newer than the code knows', () => {
    it('refuses it with a StorageError and changes nothing', () => {
      const { database, file } = databases.fresh();
      database.close();
      withRaw(file, (raw) => raw.prepare("INSERT INTO schema_migrations VALUES (99, 'from_the_future', '2099-01-01')").run());
      let error: unknown;
      try {
        databases.open(file);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code: 'MG_STORAGE', file });
      expect((error as Error).message).toMatch(new RegExp(String.raw`schema is at version 99, newer than this moonglass knows \(${NEXT - 1}\).*never downgrades`));
      withRaw(file, (raw) => {
        expect(raw.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all()).toEqual([...KNOWN, 99]);
      });
    });
  });

  describe('when a migration throws', () => {
    it('rolls that migration back, keeps the earlier ones, and throws a StorageError naming it with the cause', () => {
      const file = join(databases.folder(), 'broken.db');
      const broken: Migration = {
        version: NEXT,
        name: 'broken_step',
        up: (raw) => {
          raw.exec('CREATE TABLE half_done (id INTEGER)');
          raw.exec('THIS IS NOT SQL');
        },
      };
      withRaw(file, (raw) => {
        let error: unknown;
        try {
          runMigrations(raw, [...MIGRATIONS, broken], createMemoryLogger().logger);
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(StorageError);
        expect(error).toMatchObject({ code: 'MG_STORAGE', file });
        expect((error as Error).message).toMatch(new RegExp(String.raw`migration ${NEXT} \(broken_step\) failed and was rolled back: SqliteError`));
        expect((error as Error).cause).toBeInstanceOf(BetterSqlite3.SqliteError);
        expect(tablesOf(raw)).not.toContain('half_done');
        expect(raw.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual(KNOWN);
      });
    });
  });

  describe('when the list is out of order', () => {
    it('refuses it before touching the database', () => {
      const file = join(databases.folder(), 'order.db');
      const noop = (): void => {};
      withRaw(file, (raw) => {
        expect(() =>
          runMigrations(
            raw,
            [
              { version: 2, name: 'b', up: noop },
              { version: 1, name: 'a', up: noop },
            ],
            createMemoryLogger().logger,
          ),
        ).toThrow(/migration 1 \(a\) is out of order/);
        expect(tablesOf(raw)).toEqual([]);
      });
    });
  });
});

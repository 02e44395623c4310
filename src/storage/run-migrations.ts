import type BetterSqlite3 from 'better-sqlite3';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import { StorageError } from './errors/storage-error.js';
import type { Migration } from './migrations.js';

/**
 * Brings the schema of `database` up to the last of `migrations` and returns the versions
 * it applied (empty when the schema was current). Each pending migration runs in its own
 * `BEGIN IMMEDIATE` transaction together with its row in `schema_migrations`, and is
 * skipped if another connection applied it meanwhile.
 *
 * Refuses, with a `StorageError`, a database stamped with a version newer than the code
 * knows (it was written by a newer moonglass; there is no downgrade), a migration list
 * that is not strictly ascending, and a migration that throws (that one is rolled back;
 * the ones before it stay applied).
 */
export function runMigrations(database: BetterSqlite3.Database, migrations: readonly Migration[], logger: Logger): number[] {
  const file = database.name;
  checkOrder(file, migrations);
  database.exec(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT,
      applied_at TEXT
    )
  `);
  const newest = database.prepare<[], { version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations').get()?.version ?? 0;
  const known = migrations.at(-1)?.version ?? 0;
  if (newest > known) {
    throw new StorageError(
      file,
      `the schema is at version ${newest}, newer than this moonglass knows (${known}); ` +
        'it was written by a newer release: run that release, or restore a backup (moonglass never downgrades a schema)',
    );
  }

  const isApplied = database.prepare<[number], { version: number }>('SELECT version FROM schema_migrations WHERE version = ?');
  const stamp = database.prepare<[number, string]>(
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
  );
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= newest) continue;
    const apply = database.transaction((): boolean => {
      if (isApplied.get(migration.version) !== undefined) return false;
      migration.up(database);
      stamp.run(migration.version, migration.name);
      return true;
    });
    let ran: boolean;
    try {
      ran = apply.immediate();
    } catch (error) {
      throw new StorageError(file, `migration ${migration.version} (${migration.name}) failed and was rolled back: ${describeError(error)}`, {
        cause: error,
      });
    }
    if (ran) {
      applied.push(migration.version);
      logger.info({ file, version: migration.version, migration: migration.name }, 'applied a database migration');
    }
  }
  return applied;
}

function checkOrder(file: string, migrations: readonly Migration[]): void {
  let previous = 0;
  for (const migration of migrations) {
    if (!Number.isInteger(migration.version) || migration.version <= previous) {
      throw new StorageError(
        file,
        `migration ${String(migration.version)} (${migration.name}) is out of order: versions must be positive integers, strictly ascending`,
      );
    }
    previous = migration.version;
  }
}

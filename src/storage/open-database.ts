import { mkdirSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describeError } from '../kernel/errors/describe-error.js';
import { MoonglassError } from '../kernel/errors/moonglass-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import { DataFolderLock } from './data-folder-lock.js';
import { Database } from './database.js';
import { StorageError } from './errors/storage-error.js';
import { MIGRATIONS } from './migrations.js';
import { runMigrations } from './run-migrations.js';

export interface OpenDatabaseOptions {
  /** Path of the SQLite file; it and its folder are created when missing. */
  file: string;
  logger: Logger;
}

/** Milliseconds a statement waits for another connection's lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;
/** Pages of WAL (4 KiB each) after which a commit checkpoints it into the database file. */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;
/** Size the -wal file is cut back to after a checkpoint, bytes. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Opens (or creates) the SQLite database at `file`, first taking the lock of its folder
 * (`moonglass.lock` beside `moonglass.db`, see `DataFolderLock`; an in-memory database
 * takes none): WAL journal (readers never block the
 * writer), `synchronous = NORMAL` (durable across a process crash; a power cut may lose the
 * last commits, never corrupt the file), foreign keys on, a 5 s busy timeout; then applies
 * pending migrations.
 *
 * Throws a `StorageError` naming the file when its folder cannot be created, the file
 * cannot be opened or is not a SQLite database, its schema is newer than this code, or a
 * migration fails. A file that is not a database is left as it was. Throws a
 * `DataFolderLockedError` naming the folder and the holder's pid when a running host (in
 * this process or another) has the file open; closing the database releases the lock.
 */
export function openDatabase(options: OpenDatabaseOptions): Database {
  const { file, logger } = options;
  const folder = dirname(file);
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new StorageError(file, `cannot create its folder ${folder}: ${describeError(error)}`, { cause: error });
  }

  const lock = file === ':memory:' || file === '' ? undefined : acquireLock(file, logger);

  let handle: BetterSqlite3.Database;
  try {
    handle = new BetterSqlite3(file);
  } catch (error) {
    lock?.release();
    throw new StorageError(file, `cannot open it: ${describeError(error)}`, { cause: error });
  }

  try {
    handle.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // The first statement that reads the file: a file that is not SQLite fails here, unchanged.
    // A new file gets incremental auto-vacuum before its first table, so retention can give
    // space back without ever rewriting the whole file (an existing file keeps its mode).
    handle.pragma('auto_vacuum = INCREMENTAL');
    const journalMode = handle.pragma('journal_mode = WAL', { simple: true });
    if (journalMode !== 'wal' && !handle.memory) {
      logger.warn({ file, journalMode }, 'the database could not switch to WAL; readers may block the writer');
    }
    handle.pragma('synchronous = NORMAL');
    // A checkpoint every ~40 MB of WAL, not SQLite's ~4 MB. Under load the same index pages
    // change in every commit, and a checkpoint copies each changed page once however often it
    // changed: a tenth as many checkpoints copy about a tenth as much (issue 20: at C=100 the
    // commits took 194 -> 114 ms of each second, and the bot answered ~8% more). The -wal file
    // stays about that size between checkpoints; one that grew past 64 MiB (a long reader held
    // the checkpoint off) is cut back after the next. Closing the last connection empties it.
    handle.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    handle.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    handle.pragma('foreign_keys = ON');
    const applied = runMigrations(handle, MIGRATIONS, logger);
    logger.debug({ file, applied }, 'opened the database');
    return new Database(handle, logger, lock);
  } catch (error) {
    handle.close();
    lock?.release();
    if (MoonglassError.isInstance(error)) throw error;
    throw new StorageError(file, openFailureReason(error), { cause: error });
  }
}

/** One lock per database file, named after it: `<folder>/moonglass.lock` for `<folder>/moonglass.db`. */
function acquireLock(file: string, logger: Logger): DataFolderLock {
  const absolute = resolve(file);
  const folder = dirname(absolute);
  const lockFile = join(folder, `${basename(absolute, extname(absolute))}.lock`);
  try {
    return DataFolderLock.acquire({ folder, file: lockFile, logger });
  } catch (error) {
    if (MoonglassError.isInstance(error)) throw error;
    throw new StorageError(file, `cannot lock its folder with ${lockFile}: ${describeError(error)}`, { cause: error });
  }
}

function openFailureReason(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'SQLITE_NOTADB') return 'it is not a SQLite database (move it away or point the data folder elsewhere)';
  if (code === 'SQLITE_CORRUPT') return 'the database file is corrupt (restore a backup)';
  return `cannot prepare it: ${describeError(error)}`;
}

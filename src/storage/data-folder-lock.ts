import BetterSqlite3 from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import { describeError } from '../kernel/errors/describe-error.js';
import { DataFolderLockedError } from '../kernel/errors/data-folder-locked-error.js';
import type { Logger } from '../kernel/logger/logger.js';

/** What the lock file holds: who has the folder, for the error a second host shows. */
interface LockRecord {
  pid: number;
  hostname: string;
  /** ISO 8601, for people reading the file or the error. */
  startedAt: string;
  /** Tells this lock from a later one at the same path, so `release()` removes only its own. */
  token: string;
}

export interface AcquireDataFolderLockOptions {
  /** The data folder, named in the error. */
  folder: string;
  /** The lock file inside it (`moonglass.lock`); the kernel lock is `<file>.held` beside it. */
  file: string;
  logger: Logger;
}

// Locks this process holds, by file: their record is removed on a plain `process.exit()`
// too (a second Ctrl+C), when nothing had the chance to close the database.
const heldLocks = new Map<string, { lock: DataFolderLock; token: string }>();
let exitHookInstalled = false;

/** A lock file being written by its owner right now reads as empty; give it this long. */
const UNREADABLE_GRACE_MS = 1_000;

/**
 * One host per data folder. The truth is a kernel lock: `<file>.held`, a tiny SQLite file
 * kept open in exclusive locking mode, which the operating system releases the moment its
 * process ends, however it ends (kill -9, OOM, power cut, a container re-created with a new
 * hostname). Nothing a crashed host leaves behind can block the next one, and no process id
 * has to be trusted (ids are reused; pid 1 is every container's). Two connections in one
 * process conflict too, so a second host in the same process is refused as well.
 *
 * Beside it, `<file>` (JSON) names the holder: its pid, host name and start time, for the
 * error a second host shows. It is written only while holding the kernel lock; one found
 * without a live holder is a crashed host's and is replaced, with a warning naming it.
 */
export class DataFolderLock {
  readonly folder: string;
  readonly file: string;
  readonly #token: string;
  readonly #logger: Logger;
  readonly #kernel: BetterSqlite3.Database;
  #released = false;

  private constructor(folder: string, file: string, token: string, kernel: BetterSqlite3.Database, logger: Logger) {
    this.folder = folder;
    this.file = file;
    this.#token = token;
    this.#kernel = kernel;
    this.#logger = logger;
  }

  /**
   * Takes the lock, replacing a crashed host's record (logged as a warning naming its
   * process). Throws `DataFolderLockedError` with the folder and the holder's pid when a
   * running host holds it.
   */
  static acquire(options: AcquireDataFolderLockOptions): DataFolderLock {
    const { folder, file, logger } = options;
    const kernel = takeKernelLock(`${file}.held`);
    if (kernel === undefined) {
      const holder = readLock(file)?.record;
      throw new DataFolderLockedError(folder, holder?.pid ?? 0, {
        lockFile: file,
        hostname: holder === undefined || holder.hostname === osHostname() ? undefined : holder.hostname,
        ...(holder === undefined ? {} : { startedAt: holder.startedAt }),
        heldByThisProcess: heldLocks.has(file),
      });
    }
    const left = readLock(file);
    if (left !== undefined) {
      const pid = left.record?.pid;
      const reason = left.record === undefined ? 'the lock file is unreadable (its writer died while writing it)' : `no running host holds the folder (process ${pid} is gone)`;
      logger.warn({ folder, file, pid, reason }, `removed a stale lock of the data folder${pid === undefined ? '' : ` from process ${pid}`}: ${reason}`);
    }
    const record: LockRecord = { pid: process.pid, hostname: osHostname(), startedAt: new Date().toISOString(), token: randomUUID() };
    try {
      writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
    } catch (error) {
      kernel.close();
      throw error;
    }
    const lock = new DataFolderLock(folder, file, record.token, kernel, logger);
    heldLocks.set(file, { lock, token: record.token });
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const held of [...heldLocks.values()]) held.lock.release();
      });
    }
    logger.debug({ folder, file, pid: record.pid }, 'took the lock of the data folder');
    return lock;
  }

  /** Removes the lock file if it is still this lock's, and lets the kernel lock go. Safe to call more than once. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    if (heldLocks.get(this.file)?.lock === this) heldLocks.delete(this.file);
    try {
      if (readLock(this.file)?.record?.token === this.#token) removeFile(this.file);
    } catch (error) {
      this.#logger.warn({ file: this.file, error: describeError(error) }, 'could not remove the lock of the data folder');
    } finally {
      this.#kernel.close();
    }
  }
}

/** The kernel lock, or undefined when another connection (in any process) holds it. */
function takeKernelLock(file: string): BetterSqlite3.Database | undefined {
  const handle = new BetterSqlite3(file, { timeout: 0 });
  try {
    handle.pragma('journal_mode = OFF'); // nothing is ever written: no journal file beside it
    handle.pragma('locking_mode = EXCLUSIVE');
    // The first write transaction takes the exclusive lock; in this mode it is kept until close.
    handle.exec('BEGIN EXCLUSIVE; COMMIT;');
    return handle;
  } catch (error) {
    handle.close();
    if (errorCode(error) === 'SQLITE_BUSY' || errorCode(error) === 'SQLITE_LOCKED') return undefined;
    throw error;
  }
}


/** The lock's text and record; undefined when the file is gone. Waits briefly for a lock being written. */
function readLock(file: string): { raw: string; record: LockRecord | undefined } | undefined {
  const deadline = Date.now() + UNREADABLE_GRACE_MS;
  for (;;) {
    const raw = readRaw(file);
    if (raw === undefined) return undefined;
    const record = parseRecord(raw);
    if (record !== undefined || Date.now() > deadline || !isFresh(file)) return { raw, record };
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
  }
}

function isFresh(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < UNREADABLE_GRACE_MS;
  } catch {
    return false;
  }
}

function parseRecord(raw: string): LockRecord | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockRecord> | null;
    if (typeof value !== 'object' || value === null) return undefined;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return undefined;
    if (typeof value.hostname !== 'string' || typeof value.token !== 'string') return undefined;
    return {
      pid: value.pid,
      hostname: value.hostname,
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : '',
      token: value.token,
    };
  } catch {
    return undefined;
  }
}

function readRaw(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}



function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import { describeError } from '../kernel/errors/describe-error.js';
import { DataFolderLockedError } from '../kernel/errors/data-folder-locked-error.js';
import type { Logger } from '../kernel/logger/logger.js';

/** What a lock file holds: enough to tell whether its writer still runs. */
interface LockRecord {
  pid: number;
  hostname: string;
  /** ISO 8601, for people reading the file or the error. */
  startedAt: string;
  /** Linux: the process's start time in clock ticks since boot (`/proc/<pid>/stat` field 22). */
  processStart: string | undefined;
  /** Linux: `/proc/sys/kernel/random/boot_id`. */
  bootId: string | undefined;
  /** Tells this lock from a later one at the same path, so `release()` removes only its own. */
  token: string;
}

type Verdict = { held: true; byThisProcess: boolean } | { held: false; reason: string };

export interface AcquireDataFolderLockOptions {
  /** The data folder, named in the error. */
  folder: string;
  /** The lock file inside it. */
  file: string;
  logger: Logger;
}

// Locks this process holds, by file: released on a plain `process.exit()` too (a second
// Ctrl+C), when nothing had the chance to close the database.
const heldLocks = new Map<string, { lock: DataFolderLock; token: string }>();
let exitHookInstalled = false;

/** A lock file being written by its owner right now reads as empty; give it this long. */
const UNREADABLE_GRACE_MS = 1_000;
const MAX_ATTEMPTS = 5;

/**
 * One host per data folder: an exclusive lock file naming the process that holds it.
 *
 * Taken by an atomic create (`open(..., 'wx')`), so of two hosts starting together exactly
 * one wins. A lock left behind by a host that died (kill -9, power cut) is stale and taken
 * over: its process is gone (`kill(pid, 0)` says ESRCH), or it names this process's own id
 * without this process having taken it (an earlier process had the same id, as pid 1 in a
 * container does on every restart).
 *
 * Process ids are reused. On Linux the lock also records the process's start time and the
 * boot id, so a live process that merely got the same id later (or after a reboot) is seen
 * as a different one and the lock as stale. Elsewhere, and for a lock written on another
 * machine (a shared folder), a live process with that id counts as the holder: the host
 * refuses to start and the error names the file to delete. Refusing wrongly costs a manual
 * step; starting wrongly would put two hosts on one database.
 */
export class DataFolderLock {
  readonly folder: string;
  readonly file: string;
  readonly #token: string;
  readonly #logger: Logger;
  #released = false;

  private constructor(folder: string, file: string, token: string, logger: Logger) {
    this.folder = folder;
    this.file = file;
    this.#token = token;
    this.#logger = logger;
  }

  /**
   * Takes the lock, replacing a stale one (logged as a warning naming its process). Throws
   * `DataFolderLockedError` with the folder and the holder's pid when a live host holds it.
   */
  static acquire(options: AcquireDataFolderLockOptions): DataFolderLock {
    const { folder, file, logger } = options;
    const record: LockRecord = {
      pid: process.pid,
      hostname: osHostname(),
      startedAt: new Date().toISOString(),
      processStart: processStartOf(process.pid),
      bootId: bootId(),
      token: randomUUID(),
    };
    let lastHolder: LockRecord | undefined;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      let descriptor: number;
      try {
        descriptor = openSync(file, 'wx');
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
        const existing = readLock(file);
        if (existing === undefined) continue; // removed in between: try again
        const verdict = judge(existing.record, file);
        if (verdict.held) {
          const holder = existing.record!;
          throw new DataFolderLockedError(folder, holder.pid, {
            lockFile: file,
            hostname: holder.hostname === osHostname() ? undefined : holder.hostname,
            startedAt: holder.startedAt,
            heldByThisProcess: verdict.byThisProcess,
          });
        }
        lastHolder = existing.record;
        // Remove it only if it is still the one judged: another starting host may have
        // replaced it a moment ago.
        if (readRaw(file) === existing.raw) removeFile(file);
        const pid = existing.record?.pid;
        logger.warn({ folder, file, pid, reason: verdict.reason }, `removed a stale lock of the data folder${pid === undefined ? '' : ` from process ${pid}`}: ${verdict.reason}`);
        continue;
      }
      try {
        writeSync(descriptor, `${JSON.stringify(record, null, 2)}\n`);
      } finally {
        closeSync(descriptor);
      }
      const lock = new DataFolderLock(folder, file, record.token, logger);
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
    // Only reached when other processes keep creating and removing the file under us.
    throw new DataFolderLockedError(folder, lastHolder?.pid ?? 0, { lockFile: file });
  }

  /** Removes the lock file if it is still this lock's. Safe to call more than once. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    if (heldLocks.get(this.file)?.lock === this) heldLocks.delete(this.file);
    try {
      if (readLock(this.file)?.record?.token === this.#token) removeFile(this.file);
    } catch (error) {
      this.#logger.warn({ file: this.file, error: describeError(error) }, 'could not remove the lock of the data folder');
    }
  }
}

function judge(record: LockRecord | undefined, file: string): Verdict {
  if (record === undefined) return { held: false, reason: 'the lock file is unreadable (its writer died while writing it)' };
  if (record.hostname !== osHostname()) return { held: true, byThisProcess: false };
  if (record.pid === process.pid) {
    if (heldLocks.get(file)?.token === record.token) return { held: true, byThisProcess: true };
    return { held: false, reason: `it names this process's id ${record.pid}, which an earlier process had` };
  }
  if (!isAlive(record.pid)) return { held: false, reason: `process ${record.pid} is no longer running` };
  const currentBoot = bootId();
  if (record.bootId !== undefined && currentBoot !== undefined && record.bootId !== currentBoot) {
    return { held: false, reason: `it was written before the machine restarted; process ${record.pid} now is another program` };
  }
  const start = processStartOf(record.pid);
  if (record.processStart !== undefined && start !== undefined && record.processStart !== start) {
    return { held: false, reason: `process ${record.pid} now is another program that got the same id` };
  }
  return { held: true, byThisProcess: false };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return errorCode(error) !== 'ESRCH';
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
      processStart: typeof value.processStart === 'string' ? value.processStart : undefined,
      bootId: typeof value.bootId === 'string' ? value.bootId : undefined,
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

/** Linux only: field 22 of `/proc/<pid>/stat` (after the parenthesised command name). */
function processStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

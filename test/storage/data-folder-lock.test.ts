import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolderLockedError } from '../../src/kernel/errors/data-folder-locked-error.js';
import { MoonglassError } from '../../src/kernel/errors/moonglass-error.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { DataFolderLock } from '../../src/storage/data-folder-lock.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { projectRoot, useTempDir } from '../support/temp-dir.js';
import { catchError } from '../support/catch-error.js';

// Issue 13, item 5: one host per data folder. The lock is a kernel lock that dies with its
// process (moonglass.lock.held), beside a record naming the holder (moonglass.lock); a
// record without a running holder is a crashed host's and is taken over.


/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function writeLock(file: string, fields: Record<string, unknown>): void {
  writeFileSync(file, JSON.stringify({ hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z', token: 'someone-else', ...fields }));
}

describe('DataFolderLock', () => {
  const tempDir = useTempDir();
  const held: DataFolderLock[] = [];
  const children: { kill(): void }[] = [];
  afterEach(() => {
    while (held.length > 0) held.pop()!.release();
    while (children.length > 0) children.pop()!.kill();
  });

  function acquire(folder: string) {
    const { logger, records } = createMemoryLogger();
    const file = join(folder, 'moonglass.lock');
    const lock = DataFolderLock.acquire({ folder, file, logger });
    held.push(lock);
    return { lock, file, records };
  }

  /** A live process other than this one, and its pid. */
  async function liveProcess(): Promise<number> {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); process.stdout.write("up")'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(child);
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    return child.pid!;
  }

  /** Another process with the folder's database open, as a running host has; its pid. */
  async function holdingProcess(folder: string): Promise<number> {
    const register = pathToFileURL(join(projectRoot, 'src/register-typescript.mjs')).href;
    const script = join(projectRoot, 'test/fixtures/storage/hold-database.ts');
    const child = spawn(process.execPath, ['--conditions=source', '--import', register, script, join(folder, 'moonglass.db')], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    return child.pid!;
  }

  it('creates moonglass.lock naming this process, and release() removes it (twice is fine)', () => {
    const folder = tempDir();
    const { lock, file } = acquire(folder);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, hostname: hostname() });
    lock.release();
    expect(existsSync(file)).toBe(false);
    expect(() => lock.release()).not.toThrow();
  });

  it('refuses a folder that a running host holds, naming the folder and its pid (MG_DATA_FOLDER_LOCKED)', async () => {
    const folder = tempDir();
    const pid = await holdingProcess(folder);
    const error = catchError(() => acquire(folder));
    expect(error).toBeInstanceOf(DataFolderLockedError);
    expect(MoonglassError.hasCode(error, 'MG_DATA_FOLDER_LOCKED')).toBe(true);
    expect(error).toMatchObject({ folder, pid, lockFile: join(folder, 'moonglass.lock') });
    expect((error as Error).message).toContain(`data folder ${folder} is in use by another moonglass host, process ${pid}`);
    expect((error as Error).message).toContain(`delete ${join(folder, 'moonglass.lock')}`);
  });

  it('refuses a second lock in the same process until the first is released', () => {
    const folder = tempDir();
    const { lock } = acquire(folder);
    const error = catchError(() => acquire(folder));
    expect(error).toMatchObject({ code: 'MG_DATA_FOLDER_LOCKED', folder, pid: process.pid });
    expect((error as Error).message).toMatch(/this process \(pid \d+\) already has its database open/);
    lock.release();
    expect(() => acquire(folder)).not.toThrow();
  });

  describe('a stale lock', () => {
    it('left by a process that is gone is taken over, with a warning naming that process', () => {
      const folder = tempDir();
      const pid = deadPid();
      writeLock(join(folder, 'moonglass.lock'), { pid });
      const { file, records } = acquire(folder);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid });
      expect(records).toContainEqual(expect.objectContaining({ level: 'warn', pid, msg: expect.stringContaining(`removed a stale lock of the data folder from process ${pid}`) }));
    });

    it('naming a live process that does not hold the folder (its pid was reused) is taken over', async () => {
      const folder = tempDir();
      const pid = await liveProcess();
      writeLock(join(folder, 'moonglass.lock'), { pid });
      const { records } = acquire(folder);
      expect(records).toContainEqual(expect.objectContaining({ level: 'warn', pid, msg: expect.stringContaining(`from process ${pid}`) }));
    });

    it('left by a host that was killed with SIGKILL is taken over at once', async () => {
      const folder = tempDir();
      const pid = await holdingProcess(folder);
      const child = children.at(-1) as unknown as { once(event: 'exit', listener: () => void): void };
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      process.kill(pid, 'SIGKILL');
      await exited;
      expect(existsSync(join(folder, 'moonglass.lock'))).toBe(true); // left behind
      const { records } = acquire(folder);
      expect(records.some((record) => record.level === 'warn' && record.pid === pid)).toBe(true);
    });

    it("naming this process's own pid, which this process never took (pid 1 in a container after a restart), is taken over", () => {
      const folder = tempDir();
      writeLock(join(folder, 'moonglass.lock'), { pid: process.pid });
      const { lock, records } = acquire(folder);
      expect(records.some((record) => record.level === 'warn')).toBe(true);
      expect(lock.file).toBe(join(folder, 'moonglass.lock'));
    });

    it('that is not a lock record (its writer died while writing it) is taken over', () => {
      const folder = tempDir();
      writeFileSync(join(folder, 'moonglass.lock'), '');
      utimesSync(join(folder, 'moonglass.lock'), new Date(0), new Date(0));
      expect(() => acquire(folder)).not.toThrow();
    });
  });

  it('takes over a record written under another host name (a container re-created after a crash) when no host holds the folder', () => {
    const folder = tempDir();
    writeLock(join(folder, 'moonglass.lock'), { pid: 1, hostname: 'old-container-id' });
    const { file } = acquire(folder);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, hostname: hostname() });
  });

  it('is removed when the process exits without closing the database', () => {
    const folder = tempDir();
    const register = pathToFileURL(join(projectRoot, 'src/register-typescript.mjs')).href;
    const script = join(projectRoot, 'test/fixtures/storage/open-database-and-exit.ts');
    const child = spawnSync(process.execPath, ['--conditions=source', '--import', register, script, join(folder, 'moonglass.db')], { encoding: 'utf8' });
    expect(child.stdout).toContain('locked');
    expect(child.status).toBe(0);
    expect(existsSync(join(folder, 'moonglass.db'))).toBe(true);
    expect(existsSync(join(folder, 'moonglass.lock'))).toBe(false);
  });
});

describe('openDatabase and the data folder lock', () => {
  const tempDir = useTempDir();

  it('holds moonglass.lock while the database is open, refuses a second open of the file, and close() lets it go', () => {
    const folder = tempDir();
    const file = join(folder, 'moonglass.db');
    const { logger } = createMemoryLogger();
    const first = openDatabase({ file, logger });
    try {
      expect(existsSync(join(folder, 'moonglass.lock'))).toBe(true);
      expect(catchError(() => openDatabase({ file, logger }))).toMatchObject({ code: 'MG_DATA_FOLDER_LOCKED', folder, pid: process.pid });
    } finally {
      first.close();
    }
    expect(existsSync(join(folder, 'moonglass.lock'))).toBe(false);
    const again = openDatabase({ file, logger });
    again.close();
  });

  it('releases the lock when the file cannot be opened as a database', () => {
    const folder = tempDir();
    const file = join(folder, 'moonglass.db');
    writeFileSync(file, 'not a database, just text that is long enough to be read as a header...');
    const { logger } = createMemoryLogger();
    expect(catchError(() => openDatabase({ file, logger }))).toMatchObject({ code: 'MG_STORAGE' });
    expect(existsSync(join(folder, 'moonglass.lock'))).toBe(false);
  });

  it('takes no lock for in-memory databases, so any number can be open', () => {
    const { logger } = createMemoryLogger();
    const one = openDatabase({ file: ':memory:', logger });
    const two = openDatabase({ file: ':memory:', logger });
    expect(one.isOpen && two.isOpen).toBe(true);
    one.close();
    two.close();
  });
});

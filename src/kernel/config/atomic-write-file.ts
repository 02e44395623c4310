import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Replaces `file` with `text` so that a reader (or a crash) sees either the whole old file
 * or the whole new one: write a temporary file beside it, flush it, rename it over.
 */
export function atomicWriteFile(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { encoding: 'utf8', flag: 'wx' });
    const handle = openSync(temporary, 'r');
    try {
      fsyncSync(handle);
    } finally {
      closeSync(handle);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  try {
    const directory = openSync(dirname(file), 'r');
    try {
      fsyncSync(directory);
    } finally {
      closeSync(directory);
    }
  } catch {
    // Directory fsync is not supported everywhere; the rename itself is already atomic.
  }
}

import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface AtomicWriteOptions {
  /**
   * Flush the data and the folder to disk before returning (default true), so that the new
   * content survives a power cut. Without it the replacement is still all-or-nothing, but a
   * crash right after may bring back the old content: fine for files the host regenerates
   * itself (default config files), not for what a user saved.
   */
  durable?: boolean;
}

/**
 * Replaces `file` with `text` so that a reader (or a crash) sees either the whole old file
 * or the whole new one: write a temporary file beside it, flush it, rename it over.
 */
export function atomicWriteFile(file: string, text: string, options: AtomicWriteOptions = {}): void {
  const durable = options.durable ?? true;
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { encoding: 'utf8', flag: 'wx' });
    if (durable) {
      const handle = openSync(temporary, 'r');
      try {
        fsyncSync(handle);
      } finally {
        closeSync(handle);
      }
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  if (!durable) return;
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

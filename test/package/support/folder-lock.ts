import { mkdirSync, rmSync, statSync } from 'node:fs';

/** A lock older than this is taken for one a killed run left behind. */
export const STALE_LOCK_MS = 10 * 60_000;

/**
 * Takes a lock between test files that build the same cache: creating the folder `lock`
 * succeeds for exactly one caller. A stale lock is removed, so the next try can take it.
 */
export function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // released meanwhile
    }
    return false;
  }
}

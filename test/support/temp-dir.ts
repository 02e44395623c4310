import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** A fresh temporary folder, removed after the current test. */
export function useTempDir(): () => string {
  const made: string[] = [];
  afterEach(() => {
    while (made.length > 0) rmSync(made.pop()!, { recursive: true, force: true });
  });
  return () => {
    const directory = mkdtempSync(join(tmpdir(), 'moonglass-test-'));
    made.push(directory);
    return directory;
  };
}

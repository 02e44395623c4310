import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

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

/**
 * A fresh temporary folder inside the project (`.vitest-temp/`, ignored by git), removed
 * after the current test. Plugin code copied here can `import ... from 'moonglass'` through
 * the package's self-reference, exactly like a plugin in `plugins/`.
 */
export function useProjectTempDir(): () => string {
  const made: string[] = [];
  afterEach(() => {
    while (made.length > 0) rmSync(made.pop()!, { recursive: true, force: true });
  });
  return () => {
    const parent = join(PROJECT_ROOT, '.vitest-temp');
    mkdirSync(parent, { recursive: true });
    const directory = mkdtempSync(join(parent, 'run-'));
    made.push(directory);
    return directory;
  };
}

/** Copies fixture folders (paths relative to test/fixtures/) into `target`. */
export function copyFixture(relativePath: string, target: string): string {
  cpSync(fileURLToPath(new URL(`../fixtures/${relativePath}`, import.meta.url)), target, { recursive: true });
  return target;
}

/** The repository root. */
export const projectRoot = PROJECT_ROOT;

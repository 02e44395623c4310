import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A scratch folder under the project (`.bench-temp/`), not the system temp folder: plugin
 * files copied there must resolve `moonglass` and `zod` from the project's node_modules, as
 * a bot project's plugins do.
 */
export function benchScratch(prefix: string): string {
  const parent = join(ROOT, '.bench-temp');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, prefix));
}

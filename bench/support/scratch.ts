import { cpSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
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

/** A copy of the built-in plugins in `folder` (without any config.toml), for MOONGLASS_BUILT_IN_PLUGINS. */
export function copyBuiltIns(folder: string): string {
  const source = join(ROOT, 'src/plugins/built_in');
  for (const name of readdirSync(source)) cpSync(join(source, name), join(folder, name), { recursive: true, filter: (path) => basename(path) !== 'config.toml' });
  return folder;
}

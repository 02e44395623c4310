import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// Where a TypeScript plugin's compiled entry is kept: a folder of its own under the host's
// cache root (`<data>/cache/plugins/`, see PluginManager), never inside the plugin's folder,
// which may be an installed package that must stay as npm wrote it, or read-only, and never
// in a node_modules (a host writes only into its config and data folders).
//
// The compiled file keeps the entry's bare imports ('moonglass', 'zod') as they are written,
// and Node resolves those from the importing file's place, walking up its node_modules
// folders. So each package the plugin imports must be found in the same folder from the
// cache folder as from the plugin's (a bot project's data/ and plugins/ share the project's
// node_modules); compiled-entry.ts checks that for every one, at compile time and on every
// hit, and leaves a plugin for which it does not hold to tsx. Then `moonglass` is the
// host's one instance for the compiled entry as for the source.

/** The cache folder of the plugin in `pluginFolder`, under `cacheRoot`. */
export function compileCacheFolder(cacheRoot: string, pluginFolder: string): string {
  // One folder per plugin folder: its name for a person, a hash of its path for uniqueness.
  const key = createHash('sha256').update(pluginFolder).digest('hex').slice(0, 12);
  return join(cacheRoot, `${basename(pluginFolder)}-${key}`);
}

/**
 * The folder Node finds package `name` in when a module in `from` imports it: the first
 * `node_modules/<name>` walking up from `from` (not looking inside a node_modules folder's
 * own node_modules), or undefined when there is none.
 */
export function packageFolderFrom(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(candidate)) return candidate;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

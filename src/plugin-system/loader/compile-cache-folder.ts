import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// Where a TypeScript plugin's compiled entry is kept: node_modules/.cache/moonglass/plugins/
// of the nearest folder above the plugin's that has a node_modules (the convention of babel,
// eslint and vite for caches), never inside the plugin's own folder, which may be an
// installed package that must stay as npm wrote it, or read-only.
//
// The compiled file keeps the entry's bare imports ('moonglass', 'zod') as they are written,
// and Node resolves those from the importing file's place. From that cache folder the
// node_modules folders Node tries are, in effect, the entry's own from that node_modules up
// (those inside .cache hold nothing). A package the entry would find in a node_modules of its
// own, below that one, the compiled file would not: compiled-entry.ts checks every bare
// import for that and leaves such a plugin to tsx. So `moonglass` is the host's one instance,
// as it is for the entry.

/** The cache folder for the plugin in `pluginFolder`, or undefined when no node_modules is above it. */
export function compileCacheFolder(pluginFolder: string): string | undefined {
  const modules = nodeModulesAbove(pluginFolder);
  if (modules === undefined) return undefined;
  // One folder per plugin folder: its name for a person, a hash of its path for uniqueness.
  const key = createHash('sha256').update(pluginFolder).digest('hex').slice(0, 12);
  return join(modules, '.cache', 'moonglass', 'plugins', `${basename(pluginFolder)}-${key}`);
}

/** The nearest `node_modules` folder above `folder` (in one of its parents, not inside it). */
export function nodeModulesAbove(folder: string): string | undefined {
  if (dirname(folder) === folder) return undefined;
  for (let dir = dirname(folder); ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const modules = join(dir, 'node_modules');
      if (existsSync(modules)) return modules;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

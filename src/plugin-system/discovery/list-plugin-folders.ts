import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeError } from '../../kernel/errors/describe-error.js';
import type { Logger } from '../../kernel/logger/logger.js';
import type { PluginRoot } from './plugin-root.js';
import { pluginPackageFolders } from './plugin-packages.js';

/**
 * The plugin folders of a root, in scan order: a folder root's sub-folders sorted by name,
 * a packages root's plugin packages (see `pluginPackageFolders`).
 */
export function listPluginFolders(root: PluginRoot, logger?: Logger): string[] {
  if (root.packages === true) return pluginPackageFolders(root.path, logger);
  let entries: Dirent[];
  try {
    entries = readdirSync(root.path, { withFileTypes: true });
  } catch (error) {
    // A missing root is an empty root; anything else is worth a word.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      logger?.warn({ root: root.path, error: describeError(error) }, '插件根目录无法读取，按空目录处理');
    }
    return [];
  }
  // Symbolic links are listed too, so that one pointing elsewhere is refused with a reason
  // instead of being silently passed over.
  return entries
    .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort()
    .map((name) => join(root.path, name));
}

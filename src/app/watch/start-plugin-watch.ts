import { resolve } from 'node:path';
import type { Logger } from '../../kernel/logger/logger.js';
import { enableFreshPluginGraphs } from '../../plugin-system/loader/fresh-plugin-graphs.js';
import type { Host } from '../create-host.js';
import { type PluginFolderWatch, watchPluginFolders } from './watch-plugin-folders.js';

/**
 * `moonglass start --watch`, once the host has started: the folder plugins in `./plugins`
 * (the standard root, see defaultPluginRoots) reload when their files change, helpers they
 * import included (see enableFreshPluginGraphs).
 */
export function startPluginWatch(host: Host, logger: Logger): PluginFolderWatch {
  enableFreshPluginGraphs();
  return watchPluginFolders({ pluginsDir: resolve('plugins'), plugins: host.plugins, clock: host.clock, logger });
}

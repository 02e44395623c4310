import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describeError } from '../../kernel/errors/describe-error.js';
import type { Logger } from '../../kernel/logger/logger.js';
import type { Clock } from '../../kernel/time/clock.js';
import type { PluginManager } from '../../plugin-system/plugin-manager.js';
import { debounceByKey } from './debounce-by-key.js';
import { pluginFolderOfChange } from './plugin-folder-of-change.js';
import { reloadPluginFolder } from './reload-plugin-folder.js';
import { type FolderTreeWatch, watchFolderTree } from './watch-folder-tree.js';

/** How long a plugin folder must be quiet before it reloads: an editor's save is several events within a few ms. */
export const WATCH_QUIET_MS = 150;

export interface WatchPluginFoldersOptions {
  /** The folder plugins (`<project>/plugins`); built-ins and plugin packages are not watched. */
  pluginsDir: string;
  plugins: PluginManager;
  clock: Clock;
  logger: Logger;
  quietMs?: number;
}

export interface PluginFolderWatch {
  /** Stops watching; resolves once a reload under way has finished. */
  stop(): Promise<void>;
  /** Resolves when every change seen so far has been handled (for tests and for stopping). */
  settled(): Promise<void>;
}

/**
 * `moonglass start --watch`: watches plugins/ and every folder in it (`watchFolderTree`) and, once a plugin folder has
 * been quiet for `quietMs`, brings the host in line with it (see `reloadPluginFolder`):
 * reloads a changed plugin, keeping its running version when the new code fails; loads a
 * new folder; removes a deleted one. Reloads run one at a time, in the order folders went
 * quiet; a folder changed again during its reload reloads once more after it. Each logs
 * one line saying what happened.
 */
export function watchPluginFolders(options: WatchPluginFoldersOptions): PluginFolderWatch {
  const { pluginsDir, plugins, clock, logger } = options;
  const shown = relative(process.cwd(), pluginsDir) || '.';
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;
  const reload = (name: string): void => {
    queue = queue.then(async () => {
      if (stopped) return;
      const report = await reloadPluginFolder({ plugins, clock, folder: join(pluginsDir, name), shownAs: join(shown, name) });
      if (report !== undefined) logger[report.level](report.fields, report.line);
    });
  };
  const debounced = debounceByKey(clock, options.quietMs ?? WATCH_QUIET_MS, reload);

  mkdirSync(pluginsDir, { recursive: true });
  let watcher: FolderTreeWatch | undefined;
  try {
    watcher = watchFolderTree(
      pluginsDir,
      (path) => {
        const name = pluginFolderOfChange(path);
        if (name !== undefined && !stopped) debounced.touch(name);
      },
      (error) => logger.error({ folder: shown, error: describeError(error) }, `watching part of ${shown}/ stopped: ${describeError(error)}`),
    );
    logger.info({ folder: shown }, `watching ${shown}/ for changes`);
  } catch (error) {
    logger.error({ folder: shown, error: describeError(error) }, `cannot watch ${shown}/: ${describeError(error)}`);
  }
  return {
    async stop() {
      stopped = true;
      debounced.cancel();
      watcher?.close();
      await queue;
    },
    settled: () => queue,
  };
}

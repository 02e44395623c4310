import { existsSync, type FSWatcher, readdirSync, statSync, watch } from 'node:fs';
import { join, relative, sep } from 'node:path';

// Not `fs.watch(root, { recursive: true })`: on Linux, Node 20 builds the recursive watch
// from one watcher per file, and a file an editor saves by writing a copy and renaming it
// over the original (vim, sed -i, JetBrains' safe write) is a new inode that watcher never
// sees again; every later save of it went unnoticed. A watcher per folder reports every name
// inside it, whatever the inode.
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

export interface FolderTreeWatch {
  close(): void;
}

/**
 * Watches `root` and every folder below it (but `node_modules`, `.git` and dot-folders),
 * calling `onChange` with the path of what changed relative to `root`. Folders created later
 * are watched from when they appear; a deleted one's watcher is closed. `onError` gets a
 * watcher's failure (the folder stays unwatched).
 */
export function watchFolderTree(root: string, onChange: (path: string) => void, onError: (error: Error) => void): FolderTreeWatch {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;

  const add = (folder: string): void => {
    if (closed || watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, (_event, name) => {
        if (name === null) return;
        const changed = join(folder, name.toString());
        onChange(relative(root, changed));
        if (isWatchableFolder(changed)) addTree(changed);
        if (!existsSync(folder)) drop(folder);
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onError(error as Error);
      return;
    }
    watcher.on('error', (error) => {
      drop(folder);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'EPERM') onError(error);
    });
    watchers.set(folder, watcher);
  };

  const addTree = (folder: string): void => {
    add(folder);
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // gone again already
    }
    for (const entry of entries) if (entry.isDirectory() && !skipped(entry.name)) addTree(join(folder, entry.name));
  };

  const drop = (folder: string): void => {
    for (const [path, watcher] of watchers) {
      if (path === folder || path.startsWith(folder + sep)) {
        watcher.close();
        watchers.delete(path);
      }
    }
  };

  addTree(root);
  return {
    close() {
      closed = true;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

function skipped(name: string): boolean {
  return SKIPPED_FOLDERS.has(name) || name.startsWith('.');
}

function isWatchableFolder(path: string): boolean {
  const name = path.split(sep).at(-1)!;
  if (skipped(name)) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every path under a folder (itself included, as ''), each with what a write changes: type, size, mtime. */
export type FileTree = Map<string, string>;

/** The tree under `root` now; `skip(path)` leaves a sub-tree out (a path relative to `root`). */
export function snapshotTree(root: string, skip: (path: string) => boolean = () => false): FileTree {
  const tree: FileTree = new Map();
  const visit = (path: string): void => {
    const name = relative(root, path);
    if (name !== '' && skip(name)) return;
    const stat = lstatSync(path);
    const type = stat.isDirectory() ? 'dir' : stat.isSymbolicLink() ? 'link' : 'file';
    tree.set(name, `${type} ${stat.size} ${stat.mtimeMs} ${(stat.mode & 0o7777).toString(8)}`);
    if (type === 'dir') for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(root);
  return tree;
}

/** The paths added, removed or changed between two snapshots of one folder, sorted. */
export function changedPaths(before: FileTree, after: FileTree): string[] {
  const changed = new Set<string>();
  for (const [path, state] of after) if (before.get(path) !== state) changed.add(path);
  for (const path of before.keys()) if (!after.has(path)) changed.add(path);
  return [...changed].sort();
}

/** The changes under `root` while `action` runs. */
export async function changesDuring(root: string, action: () => Promise<void>, skip?: (path: string) => boolean): Promise<string[]> {
  const before = snapshotTree(root, skip);
  await action();
  return changedPaths(before, snapshotTree(root, skip));
}

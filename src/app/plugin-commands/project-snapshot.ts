import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npmErrorLine, registryArgs } from './npm-error-line.js';
import { runNpm } from './run-npm.js';

/** What a bot project's npm state was before a change: the files npm rewrites. */
export interface ProjectSnapshot {
  projectDir: string;
  packageJson: string;
  /** `undefined`: the project had no lockfile. */
  lockfile: string | undefined;
  /** The installed tree as npm recorded it (`node_modules/.package-lock.json`): name@version by path. */
  installed: ReadonlyMap<string, string>;
}

/** Every installed package as `node_modules/.package-lock.json` lists it, path → version. */
function installedTree(projectDir: string): Map<string, string> {
  const tree = new Map<string, string>();
  const file = join(projectDir, 'node_modules', '.package-lock.json');
  if (!existsSync(file)) return tree;
  const { packages } = JSON.parse(readFileSync(file, 'utf8')) as { packages?: Record<string, { version?: string }> };
  for (const [path, entry] of Object.entries(packages ?? {})) tree.set(path, entry.version ?? '(link)');
  return tree;
}

export function takeSnapshot(projectDir: string): ProjectSnapshot {
  const lock = join(projectDir, 'package-lock.json');
  return {
    projectDir,
    packageJson: readFileSync(join(projectDir, 'package.json'), 'utf8'),
    lockfile: existsSync(lock) ? readFileSync(lock, 'utf8') : undefined,
    installed: installedTree(projectDir),
  };
}

/** The paths whose installed version differs from the snapshot's, as `path: before → now`. */
function treeDifferences(snapshot: ProjectSnapshot): string[] {
  const now = installedTree(snapshot.projectDir);
  const differences: string[] = [];
  for (const [path, version] of snapshot.installed) if (now.get(path) !== version) differences.push(`${path}: ${version} → ${now.get(path) ?? 'absent'}`);
  for (const [path, version] of now) if (!snapshot.installed.has(path)) differences.push(`${path}: absent → ${version}`);
  return differences;
}

/**
 * Puts package.json and the lockfile back as they were, then has npm make node_modules match
 * that lockfile again (`npm install`, preferring its cache: what was installed before was
 * downloaded before). Resolves to `undefined` when node_modules is as it was, else a line
 * saying what still differs.
 */
export async function restoreSnapshot(snapshot: ProjectSnapshot, registry: string | undefined, progress: (line: string) => void): Promise<string | undefined> {
  const { projectDir } = snapshot;
  progress('restoring package.json and package-lock.json');
  writeFileSync(join(projectDir, 'package.json'), snapshot.packageJson);
  if (snapshot.lockfile === undefined) rmSync(join(projectDir, 'package-lock.json'), { force: true });
  else writeFileSync(join(projectDir, 'package-lock.json'), snapshot.lockfile);
  progress('restoring node_modules (npm install from the restored lockfile)');
  const install = await runNpm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn', ...registryArgs(registry)], 300_000, projectDir);
  if (snapshot.lockfile === undefined) rmSync(join(projectDir, 'package-lock.json'), { force: true });
  if (install.code !== 0) return `npm could not restore node_modules: ${npmErrorLine(install.stderr)}`;
  const differences = treeDifferences(snapshot);
  return differences.length === 0 ? undefined : `node_modules still differs from before: ${differences.slice(0, 5).join('; ')}`;
}

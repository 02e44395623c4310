import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../scratch.js';

/**
 * A bot project for bench/peers.bench.ts holding moonglass as an installed package does:
 * `node_modules/moonglass/` with the package.json and a copy of dist/ taken after the build.
 * The copy keeps a run going while someone rebuilds the checkout's dist/ (the build empties it
 * first), and plugins copied into the project import this `moonglass`, not the checkout's.
 * Every other dependency resolves from the checkout's node_modules, up the folder tree.
 */
export const MOONGLASS_PROJECT = join(ROOT, '.bench-temp', 'peers', 'moonglass');

export interface MoonglassBuild {
  /** The bot project folder (for BenchBot's `installedProject`). */
  project: string;
  /** HEAD when dist/ was built, and how many files under src/ differed from it. */
  commit: string;
  dirtySourceFiles: number;
  /** True when this run built dist/; false when dist/ was newer than every file under src/. */
  built: boolean;
}

function newestMtimeMs(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/**
 * Builds dist/ (`npm run build`) when it is missing or older than a file under src/, then
 * copies it into MOONGLASS_PROJECT. When the build fails and an earlier copy exists, that copy
 * is used with a warning (its build-info.json says what it was built from).
 */
export function prepareMoonglass(): MoonglassBuild {
  const installed = join(MOONGLASS_PROJECT, 'node_modules', 'moonglass');
  const infoFile = join(MOONGLASS_PROJECT, 'build-info.json');
  const entry = join(ROOT, 'dist', 'app', 'main.js');
  const stale = !existsSync(entry) || statSync(entry).mtimeMs < newestMtimeMs(join(ROOT, 'src'));
  let built = false;
  if (stale) {
    console.error('peers: building dist/ (npm run build) ...');
    const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.status !== 0) {
      if (!existsSync(infoFile)) throw new Error(`peers: npm run build failed (exit ${result.status ?? result.signal}) and there is no earlier copy of dist/`);
      console.error(`peers: WARNING npm run build failed; using the earlier copy of dist/ in ${installed}`);
      return { ...(JSON.parse(readFileSync(infoFile, 'utf8')) as Omit<MoonglassBuild, 'project' | 'built'>), project: MOONGLASS_PROJECT, built: false };
    }
    built = true;
  }
  const info = { commit: git('rev-parse', '--short', 'HEAD'), dirtySourceFiles: git('status', '--porcelain', '--', 'src').split('\n').filter(Boolean).length };
  rmSync(installed, { recursive: true, force: true });
  mkdirSync(installed, { recursive: true });
  cpSync(join(ROOT, 'dist'), join(installed, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(installed, 'package.json'));
  writeFileSync(join(MOONGLASS_PROJECT, 'package.json'), `${JSON.stringify({ name: 'moonglass-bench-peers-bot', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(infoFile, `${JSON.stringify(info, null, 2)}\n`);
  return { ...info, project: MOONGLASS_PROJECT, built };
}

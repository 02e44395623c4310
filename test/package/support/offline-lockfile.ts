import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [field: string]: unknown;
}

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
}

/**
 * Writes `package-lock.json` for a project that depends on the packed moonglass and on
 * packages this checkout already installed, so that `npm install --offline` needs nothing
 * but npm's cache, which `npm ci` of the checkout filled: npm fetches registry metadata to
 * resolve a range, and that is not cached; a lockfile names each tarball and its integrity,
 * which are. The entries are the checkout's own (same versions, same layout: moonglass's
 * dependencies were the checkout's top-level packages).
 */
export function writeOfflineLockfile(project: string, checkoutRoot: string, moonglassTarball: string): void {
  const own = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as PackageJson;
  const checkoutLock = JSON.parse(readFileSync(join(checkoutRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const moonglass = JSON.parse(readFileSync(join(checkoutRoot, 'package.json'), 'utf8')) as PackageJson;
  const tarballBytes = readFileSync(moonglassTarball);
  const packages: Record<string, LockEntry> = {
    '': { name: own.name, version: own.version, dependencies: own.dependencies, devDependencies: own.devDependencies },
    'node_modules/moonglass': {
      version: moonglass.version,
      resolved: `file:${relative(project, moonglassTarball)}`,
      integrity: `sha512-${createHash('sha512').update(tarballBytes).digest('base64')}`,
      license: 'MIT',
      dependencies: moonglass.dependencies,
      bin: moonglass.bin,
      engines: moonglass.engines,
    },
  };
  const wanted = [...Object.keys(moonglass.dependencies ?? {}), ...Object.keys(own.devDependencies ?? {}), ...Object.keys(own.dependencies ?? {}).filter((name) => name !== 'moonglass')];
  const queue: { from: string; name: string }[] = wanted.map((name) => ({ from: '', name }));
  while (queue.length > 0) {
    const { from, name } = queue.shift()!;
    const path = resolveInLock(checkoutLock.packages, from, name);
    if (path === undefined || path in packages) continue; // an optional peer nobody installed, or seen
    const { dev: _dev, devOptional: _devOptional, ...entry } = checkoutLock.packages[path]!;
    packages[path] = entry;
    for (const next of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies })) queue.push({ from: path, name: next });
  }
  const lock = { name: own.name, version: own.version, lockfileVersion: 3, requires: true, packages };
  writeFileSync(join(project, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
}

/** Node's lookup: `<from>/node_modules/<name>`, then each folder above, up to the top. */
function resolveInLock(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (candidate in packages) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

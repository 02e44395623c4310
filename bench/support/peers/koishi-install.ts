import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../scratch.js';

/** Where bench/peers.bench.ts installs Koishi: a folder of its own, outside the project's dependencies. */
export const KOISHI_FOLDER = join(ROOT, '.bench-temp', 'peers', 'koishi');

/**
 * Koishi 4.18 as a bot made with it runs: the app, the `http` and `server` services Koishi's
 * loader adds to every app, the OneBot adapter, and the SQLite driver. Exact versions.
 * The SQLite plugin of the registry, @koishijs/plugin-database-sqlite 3.9.0 (its only version
 * there), is written for Koishi 4.11 (`defineDriver`, gone in 4.18) and does not load; Koishi
 * 4.18's SQLite database is the minato driver it wraps, @minatojs/driver-sqlite 4.x (sql.js,
 * no native build, so it runs on any Node).
 */
export const KOISHI_PACKAGES: Readonly<Record<string, string>> = {
  koishi: '4.18.11',
  '@koishijs/plugin-http': '0.6.3',
  '@koishijs/plugin-server': '3.2.9',
  'koishi-plugin-adapter-onebot': '6.9.4',
  '@minatojs/driver-sqlite': '4.7.0',
};

function installedVersion(name: string): string | undefined {
  const manifest = join(KOISHI_FOLDER, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
}

/** Installs KOISHI_PACKAGES into KOISHI_FOLDER unless every one is there at its version already; returns the folder. */
export function installKoishi(): string {
  mkdirSync(KOISHI_FOLDER, { recursive: true });
  const manifest = { name: 'moonglass-bench-peers-koishi', private: true, description: 'Koishi for bench/peers.bench.ts (written by it)', dependencies: KOISHI_PACKAGES };
  writeFileSync(join(KOISHI_FOLDER, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const missing = Object.entries(KOISHI_PACKAGES).filter(([name, version]) => installedVersion(name) !== version);
  if (missing.length === 0) return KOISHI_FOLDER;
  console.error(`peers: installing ${missing.map(([name, version]) => `${name}@${version}`).join(', ')} into ${KOISHI_FOLDER} ...`);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: KOISHI_FOLDER, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`peers: npm install in ${KOISHI_FOLDER} failed (exit ${result.status ?? result.signal})`);
  const still = Object.entries(KOISHI_PACKAGES).filter(([name, version]) => installedVersion(name) !== version);
  if (still.length > 0) throw new Error(`peers: after npm install, ${still.map(([name, version]) => `${name} is ${installedVersion(name) ?? 'missing'} (want ${version})`).join('; ')}`);
  return KOISHI_FOLDER;
}

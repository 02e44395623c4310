import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeOfflineLockfile } from './offline-lockfile.js';
import { packMoonglass, type PackedMoonglass } from './pack-moonglass.js';
import { runOrThrow } from './run-command.js';

/** A bot project made the way a person makes one: the packed moonglass installed, `npx moonglass init`, `npm install`. */
export interface InstalledBot {
  packed: PackedMoonglass;
  /** The empty folder the tarball was installed into, where `npx moonglass init` ran. */
  installFolder: string;
  /** `<installFolder>/<name>`: the scaffolded project, installed. */
  project: string;
  /** What `npx moonglass init` printed. */
  initOutput: string;
}

// From npm's cache only (see offline-lockfile.ts). Install scripts are skipped: the one that
// matters, better-sqlite3's, would compile the addon for minutes; the checkout's own build of
// the same version for the same Node is copied in instead (provideSqliteAddon).
const OFFLINE_INSTALL = ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=warn'];

/** Packs the checkout, installs the tarball into `<scratch>/empty`, scaffolds `<name>` there and installs it. */
export async function makeInstalledBot(checkoutRoot: string, scratch: string, name: string): Promise<InstalledBot> {
  const packed = await packMoonglass(checkoutRoot, scratch);
  const installFolder = join(scratch, 'empty');
  mkdirSync(installFolder);
  writeFileSync(join(installFolder, 'package.json'), `${JSON.stringify({ name: 'empty', version: '1.0.0', private: true, dependencies: { moonglass: `file:${packed.tarball}` } }, null, 2)}\n`);
  await installOffline(installFolder, checkoutRoot, packed.tarball);
  const init = await runOrThrow('npx', ['--no-install', 'moonglass', 'init', name, '--moonglass', `file:${packed.tarball}`], { cwd: installFolder });
  const project = join(installFolder, name);
  await installOffline(project, checkoutRoot, packed.tarball);
  return { packed, installFolder, project, initOutput: init.stdout };
}

/** `npm install --offline` of `project` (its lockfile written first), then the addon copied in; `extraArgs` go to npm (e.g. `--omit=dev`). */
export async function installOffline(project: string, checkoutRoot: string, tarball: string, extraArgs: readonly string[] = []): Promise<void> {
  writeOfflineLockfile(project, checkoutRoot, tarball);
  await runOrThrow('npm', [...OFFLINE_INSTALL, ...extraArgs], { cwd: project, timeoutMs: 180_000 });
  provideSqliteAddon(project, checkoutRoot);
}

/** Copies the checkout's build of better-sqlite3's addon into `project` (installs here skip install scripts). */
export function provideSqliteAddon(project: string, checkoutRoot: string): void {
  const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  mkdirSync(dirname(join(project, addon)), { recursive: true });
  copyFileSync(join(checkoutRoot, addon), join(project, addon));
}

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installOffline } from './installed-bot.js';
import type { PackedMoonglass } from './pack-moonglass.js';
import { runCommand, runOrThrow, type CommandResult } from './run-command.js';
import { packMoonglassShared } from './shared-pack.js';

/** The packed moonglass installed into an empty folder, from which `npx moonglass init` makes projects. */
export interface InstalledMoonglass {
  checkoutRoot: string;
  packed: PackedMoonglass;
  /** `<scratch>/empty`: holds node_modules/moonglass; projects are made inside it. */
  installFolder: string;
}

/** Packs the checkout (shared across test files, see shared-pack.ts) and installs the tarball into `<scratch>/empty`. */
export async function installMoonglass(checkoutRoot: string, scratch: string): Promise<InstalledMoonglass> {
  const packed = await packMoonglassShared(checkoutRoot);
  const installFolder = join(scratch, 'empty');
  mkdirSync(installFolder);
  writeFileSync(join(installFolder, 'package.json'), `${JSON.stringify({ name: 'empty', version: '1.0.0', private: true, dependencies: { moonglass: `file:${packed.tarball}` } }, null, 2)}\n`);
  await installOffline(installFolder, checkoutRoot, packed.tarball);
  return { checkoutRoot, packed, installFolder };
}

/**
 * `npx moonglass init <name>` in the install folder, then the project installed as its
 * Dockerfile deploys it (`--omit=dev`: the host and the plugins' runtime, no vitest or tsc).
 * Returns the project folder.
 */
export async function scaffoldProject(installed: InstalledMoonglass, name: string): Promise<string> {
  await runOrThrow('npx', ['--no-install', 'moonglass', 'init', name, '--moonglass', `file:${installed.packed.tarball}`], { cwd: installed.installFolder });
  const project = join(installed.installFolder, name);
  await installOffline(project, installed.checkoutRoot, installed.packed.tarball, ['--omit=dev']);
  return project;
}

/** Writes `config/features.toml` with the web console on `port`, as a person running two bots on one machine does. */
export function setAdminPort(project: string, port: number): void {
  mkdirSync(join(project, 'config'), { recursive: true });
  writeFileSync(join(project, 'config', 'features.toml'), `[admin]\nport = ${port}\n`);
}

/** `npm start` in `project` with `lines` piped in (the bot answers, then stops as the input ends). */
export function npmStart(project: string, lines: readonly string[], env?: NodeJS.ProcessEnv): Promise<CommandResult> {
  return runCommand('npm', ['start'], { cwd: project, input: lines.map((line) => `${line}\n`).join(''), env, timeoutMs: 60_000 });
}

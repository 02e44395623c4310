import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installOffline } from './installed-bot.js';
import { cachedFolder, copyTree, templateKey } from './installed-template.js';
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

/**
 * Packs the checkout (shared across test files, see shared-pack.ts) and installs the tarball
 * into `<scratch>/empty`: a copy of one install per tarball (see installed-template.ts).
 * `scratch` must be a folder directly in the temp folder (the installs' lockfiles name the
 * tarball by a path relative to the project).
 */
export async function installMoonglass(checkoutRoot: string, scratch: string): Promise<InstalledMoonglass> {
  if (dirname(scratch) !== tmpdir()) throw new Error(`installMoonglass: the scratch folder ${scratch} is not directly in ${tmpdir()}, where the cached installs are made`);
  const packed = await packMoonglassShared(checkoutRoot);
  const installFolder = join(scratch, 'empty');
  await copyTree(join(await installedEmpty(checkoutRoot, packed.tarball), 'empty'), installFolder);
  return { checkoutRoot, packed, installFolder };
}

/** The cached `<template>/empty`: an empty folder whose package.json depends on the tarball, installed. */
function installedEmpty(checkoutRoot: string, tarball: string): Promise<string> {
  return cachedFolder(templateKey(tarball, 'empty'), async (template) => {
    const installFolder = join(template, 'empty');
    mkdirSync(installFolder);
    writeFileSync(join(installFolder, 'package.json'), `${JSON.stringify({ name: 'empty', version: '1.0.0', private: true, dependencies: { moonglass: `file:${tarball}` } }, null, 2)}\n`);
    await installOffline(installFolder, checkoutRoot, tarball);
  });
}

/**
 * `npx moonglass init <name>` in the install folder, then the project installed as its
 * Dockerfile deploys it (`--omit=dev`: the host and the plugins' runtime, no vitest or tsc).
 * Returns the project folder.
 */
export async function scaffoldProject(installed: InstalledMoonglass, name: string): Promise<string> {
  const project = join(installed.installFolder, name);
  const { checkoutRoot, packed } = installed;
  // Made once per tarball and name (in a copy of the cached install folder), copied here.
  const template = await cachedFolder(templateKey(packed.tarball, 'project', name, '--omit=dev'), async (template) => {
    const installFolder = join(template, 'empty');
    await copyTree(join(await installedEmpty(checkoutRoot, packed.tarball), 'empty'), installFolder);
    await runOrThrow('npx', ['--no-install', 'moonglass', 'init', name, '--moonglass', `file:${packed.tarball}`], { cwd: installFolder });
    await installOffline(join(installFolder, name), checkoutRoot, packed.tarball, ['--omit=dev']);
  });
  await copyTree(join(template, 'empty', name), project);
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

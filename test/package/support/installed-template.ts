import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { STALE_LOCK_MS, takeLock } from './folder-lock.js';

const execFileAsync = promisify(execFile);

const CACHE_PREFIX = 'moonglass-installed-';
const BUILD_PREFIX = 'moonglass-installing-';
// A lock older than this belongs to a run that died while installing.
const WAIT_FOR_LOCK_MS = 8 * 60_000;
const OLD_CACHE_MS = 24 * 60 * 60_000;

/**
 * A folder that `build` fills (an `npm install` of the packed moonglass, a scaffolded project),
 * made once per `key` for every test file and run that asks, and kept in
 * `<tmp>/moonglass-installed-<key>/`; callers copy what they need out of it (copyTree), never
 * write into it. An offline install is 10-40 s of a 2-core machine; a copy is a second or two.
 *
 * `build` gets an empty folder of the same depth under the temp folder as the callers' scratch
 * folders (`<tmp>/<one name>`), since npm writes the tarball's path relative to the project
 * into the lockfiles. It fills a folder of its own, renamed to the cache's name only once
 * complete: a run killed half-way leaves a `moonglass-installing-*` folder nobody reads.
 * Callers asking at the same time wait for the first one's build (a lock folder).
 */
export async function cachedFolder(key: string, build: (folder: string) => Promise<void>): Promise<string> {
  const folder = join(tmpdir(), `${CACHE_PREFIX}${key}`);
  const lock = `${folder}.lock`;
  const deadline = Date.now() + WAIT_FOR_LOCK_MS;
  while (!existsSync(folder)) {
    if (takeLock(lock)) {
      try {
        if (!existsSync(folder)) await buildInto(folder, build);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      break;
    }
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_FOR_LOCK_MS / 1000} s for another test's install into ${folder} (lock ${lock})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return folder;
}

/** A cache key for a tarball (its bytes) and what else decides the folder (a project name, npm's arguments). */
export function templateKey(tarball: string, ...parts: string[]): string {
  const hash = createHash('sha256').update(readFileSync(tarball));
  for (const part of parts) hash.update('\0').update(part);
  return hash.digest('hex').slice(0, 16);
}

/** `cp -a source destination`: a real copy (tests write into node_modules), links, modes and times as they are. */
export async function copyTree(source: string, destination: string): Promise<void> {
  if (existsSync(destination)) throw new Error(`cannot copy ${source} to ${destination}: it exists`);
  await execFileAsync('cp', ['-a', source, destination]);
}

async function buildInto(folder: string, build: (folder: string) => Promise<void>): Promise<void> {
  removeOldTemplates();
  const partial = mkdtempSync(join(tmpdir(), BUILD_PREFIX));
  try {
    await build(partial);
    renameSync(partial, folder); // only a complete folder gets the cache's name
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/** Templates of a day ago (made from older packs), and folders a killed run left half-built. */
function removeOldTemplates(): void {
  for (const name of readdirSync(tmpdir())) {
    const maxAge = name.startsWith(CACHE_PREFIX) && !name.endsWith('.lock') ? OLD_CACHE_MS : name.startsWith(BUILD_PREFIX) ? STALE_LOCK_MS : undefined;
    if (maxAge === undefined) continue;
    const path = join(tmpdir(), name);
    try {
      if (Date.now() - statSync(path).mtimeMs > maxAge) rmSync(path, { recursive: true, force: true });
    } catch {
      // another run removed it
    }
  }
}

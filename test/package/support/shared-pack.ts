import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { BUILD_INPUTS, packMoonglass, type PackedMoonglass } from './pack-moonglass.js';
import { takeLock } from './folder-lock.js';

const CACHE_PREFIX = 'moonglass-packed-';
// A lock older than this belongs to a run that died while packing.
const WAIT_FOR_LOCK_MS = 6 * 60_000;
const OLD_CACHE_MS = 24 * 60 * 60_000;
// What .gitignore says a start generates: src/plugins/**/config.toml.
const GENERATED_PLUGIN_CONFIG = /^src\/plugins\/(.+\/)?config\.toml$/;

/**
 * `npm pack` of the checkout, made once for every test file (and run) that asks while the
 * build inputs are unchanged: the tarball is kept in `<tmp>/moonglass-packed-<hash of the
 * inputs>/`. A pack is ~45 s of a 2-core machine, most of a package test file's budget.
 * Files asking at the same time wait for the first one's pack (a lock folder).
 */
export async function packMoonglassShared(checkoutRoot: string): Promise<PackedMoonglass> {
  const folder = join(tmpdir(), `${CACHE_PREFIX}${hashBuildInputs(checkoutRoot)}`);
  const report = join(folder, 'packed.json');
  const lock = `${folder}.lock`;
  const deadline = Date.now() + WAIT_FOR_LOCK_MS;
  while (!existsSync(report)) {
    if (takeLock(lock)) {
      try {
        if (!existsSync(report)) await packInto(checkoutRoot, folder, report);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      break;
    }
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_FOR_LOCK_MS / 1000} s for another test's npm pack (lock ${lock})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return JSON.parse(readFileSync(report, 'utf8')) as PackedMoonglass;
}

async function packInto(checkoutRoot: string, folder: string, report: string): Promise<void> {
  removeOldPacks();
  const scratch = mkdtempSync(join(tmpdir(), 'moonglass-packing-'));
  try {
    const packed = await packMoonglass(checkoutRoot, scratch);
    mkdirSync(folder, { recursive: true });
    const tarball = join(folder, basename(packed.tarball));
    renameSync(packed.tarball, tarball);
    // Written last: its presence means the folder is complete.
    writeFileSync(report, `${JSON.stringify({ tarball, files: packed.files } satisfies PackedMoonglass)}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function removeOldPacks(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(CACHE_PREFIX) || name.endsWith('.lock')) continue;
    const path = join(tmpdir(), name);
    try {
      if (Date.now() - statSync(path).mtimeMs > OLD_CACHE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // another run removed it
    }
  }
}

/**
 * A hash of every file a build and a pack read (paths and contents), but the `config.toml`
 * files a start writes beside the plugins (git ignores them, the build copies only manifests):
 * the nested run in test/first-run, in a checkout copy a start has written them into, then
 * shares the pack of the run around it.
 */
function hashBuildInputs(checkoutRoot: string): string {
  const hash = createHash('sha256');
  const visit = (path: string): void => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
      return;
    }
    if (GENERATED_PLUGIN_CONFIG.test(relative(checkoutRoot, path))) return;
    hash.update(relative(checkoutRoot, path)).update('\0').update(readFileSync(path)).update('\0');
  };
  for (const input of BUILD_INPUTS) visit(join(checkoutRoot, input));
  return hash.digest('hex').slice(0, 16);
}

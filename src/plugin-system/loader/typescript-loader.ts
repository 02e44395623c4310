import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from '../../kernel/logger/logger.js';
import { compiledEntry } from './compiled-entry.js';

// Plugins may be TypeScript (`plugin.ts`) with no build step. Run from the sources, the host
// already runs under tsx (`npm start`) or vite (the tests), which compile them. Run from the
// compiled package (dist/, a bot project's node_modules/moonglass), Node 20 cannot import a
// .ts file: the entry is compiled to JavaScript once and cached (compiled-entry.ts), and
// only a plugin the cache cannot hold brings in tsx: its hooks are registered the first time
// one is needed. Only then, so the host's own JavaScript still loads through Node's plain
// loader: once the hooks exist, every module resolved costs a round trip to their thread.
let registering: Promise<unknown> | undefined;
let sourceMapsEnabled = false;

const RUNNING_COMPILED = import.meta.url.endsWith('.js');

// Imports of JavaScript entries (the built-in plugins) already under way: the hooks are
// registered after they finish, so that their module graphs need no round trips.
const javaScriptImports = new Set<Promise<unknown>>();

function isTypeScript(file: string): boolean {
  return /\.[cm]?ts$/.test(file);
}

/** How a compiled host imports TypeScript entries. */
export interface EntryImportOptions {
  /** Gets, at debug level, which way a TypeScript entry went and why. */
  logger?: Logger | undefined;
  /** Where compiled TypeScript entries are cached (the host's `<data>/cache/plugins`); without it, tsx compiles them. */
  compileCacheRoot?: string | undefined;
}

/**
 * Imports a plugin's entry module (`url` is the entry's file URL, with the query that makes
 * each import a fresh one). For a .ts file in a compiled host, its cached compiled module;
 * failing that, through tsx, registered first (once per process).
 */
export async function importEntryModule(file: string, url: string, options: EntryImportOptions = {}): Promise<unknown> {
  const { logger, compileCacheRoot } = options;
  if (!RUNNING_COMPILED) return import(url);
  if (!isTypeScript(file)) {
    const imported = import(url);
    javaScriptImports.add(imported);
    void imported.finally(() => javaScriptImports.delete(imported)).catch(() => undefined);
    return imported;
  }
  const started = performance.now();
  const compiled = compileCacheRoot === undefined ? { kind: 'unsupported' as const, reason: 'no compile cache folder was given' } : await compiledEntry(file, dirname(file), compileCacheRoot);
  if (compiled.kind !== 'unsupported') {
    logger?.debug({ file, compiled: compiled.file, from: compiled.kind === 'cached' ? 'cache' : 'esbuild', ms: Math.round(performance.now() - started) }, 'TypeScript plugin entry imported as compiled JavaScript');
    // Stack traces of the plugin's errors name its .ts lines (the bundle carries its source map).
    if (!sourceMapsEnabled) {
      sourceMapsEnabled = true;
      process.setSourceMapsEnabled(true);
    }
    return import(`${pathToFileURL(compiled.file).href}${new URL(url).search}`);
  }
  logger?.debug({ file, reason: compiled.reason }, 'TypeScript plugin entry runs through tsx: the compile cache cannot hold it');
  registering ??= Promise.allSettled([...javaScriptImports]).then(
    // dist/register-typescript.mjs, copied beside the compiled host by scripts/copy-plugin-assets.mjs.
    () => import(new URL('../../register-typescript.mjs', import.meta.url).href),
  );
  await registering;
  return import(url);
}

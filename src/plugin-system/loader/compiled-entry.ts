import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Loader, Plugin, PluginBuild } from 'esbuild';
import { describeError } from '../../kernel/errors/describe-error.js';
import { compileCacheFolder, packageFolderFrom } from './compile-cache-folder.js';

// A compiled host (dist/, an installed moonglass) cannot import a plugin.ts by itself. tsx
// could compile it, but registering tsx's hooks blocks the start about 0.2 s (Node boots the
// hooks' worker thread and loads tsx into it), and from then on every module the process
// resolves costs a round trip to that thread. Instead the entry and the local files it
// imports are compiled once by esbuild into one ES module, kept in the host's data folder
// (see compile-cache-folder.ts) under a hash of every source it was made from, and imported
// as plain JavaScript: a later start only reads and hashes those sources.
//
// What stays as it is written: bare imports (packages, node: built-ins) and relative imports
// of files outside the plugin's folder (as absolute URLs). Each bundled file's import.meta.url,
// .filename and .dirname are its own source's, so a plugin reads the assets beside its files
// as before. What the bundle cannot keep (another use of import.meta, CommonJS, a `#` import,
// a TypeScript file outside the folder, a package found elsewhere from the cache folder than
// from the plugin's, a file type esbuild does not load) is an `unsupported` answer, kept in
// the cache too: the caller runs that plugin through tsx.

/** What the caller imports for a TypeScript entry. */
export type CompiledEntry =
  | { kind: 'cached' | 'compiled'; file: string }
  | { kind: 'unsupported'; reason: string };

interface CacheRecord {
  key: string;
  /** The sources the output was made from: path relative to the plugin folder → sha256. */
  inputs: Record<string, string>;
  /** The packages it imports, each of which must resolve to the same folder from the cache as from the plugin. */
  packages: string[];
  output?: string | undefined;
  unsupported?: string | undefined;
}

// Bump when the compile's options or this file's rules change, so that old outputs are redone.
const CACHE_REVISION = 1;
const TSCONFIG_URL = new URL('../../typescript.tsconfig.json', import.meta.url);
const LOADERS: Record<string, Loader> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.jsx': 'jsx', '.json': 'json' };

// Spelled in parts: scripts/bundle-dist.mjs refuses host modules whose code says import.meta
// beyond import.meta.url, and these are strings about the plugin's code, not uses of it.
const IMPORT_META = ['import', 'meta'].join('.');

let compilerOptions: Record<string, unknown> | undefined;
let cacheKey: string | undefined;
let activeBuilds = 0;

/** moonglass's compiler settings for plugins (the ones tsx is given too): legacy decorators. */
function pluginCompilerOptions(): Record<string, unknown> {
  compilerOptions ??= (JSON.parse(readFileSync(TSCONFIG_URL, 'utf8')) as { compilerOptions: Record<string, unknown> }).compilerOptions;
  return compilerOptions;
}

function currentKey(): string {
  if (cacheKey === undefined) {
    const esbuildVersion = (createRequire(import.meta.url)('esbuild/package.json') as { version: string }).version;
    cacheKey = JSON.stringify({ revision: CACHE_REVISION, esbuild: esbuildVersion, node: process.versions.node, compilerOptions: pluginCompilerOptions() });
  }
  return cacheKey;
}

function sha256(bytes: string | Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The JavaScript module to import for the TypeScript entry `entry` of the plugin in
 * `pluginFolder`, cached under `cacheRoot`: from the cache when every source it was made
 * from is unchanged, else compiled now and cached; or why it cannot be, for the caller to
 * run it through tsx.
 */
export async function compiledEntry(entry: string, pluginFolder: string, cacheRoot: string): Promise<CompiledEntry> {
  const cache = compileCacheFolder(cacheRoot, pluginFolder);
  const recordFile = join(cache, `${relative(pluginFolder, entry).split(sep).join('_')}.json`);
  const record = readRecord(recordFile);
  if (record !== undefined && isCurrent(record, pluginFolder, cache)) {
    return record.output !== undefined ? { kind: 'cached', file: join(cache, record.output) } : { kind: 'unsupported', reason: record.unsupported ?? 'unsupported' };
  }
  const built = await compile(entry, pluginFolder, cache);
  if (built.kind === 'unsupported' && !built.lasting) return { kind: 'unsupported', reason: built.reason };
  const fresh: CacheRecord = { key: currentKey(), inputs: built.inputs, packages: built.packages };
  try {
    mkdirSync(cache, { recursive: true });
    if (built.kind === 'unsupported') fresh.unsupported = built.reason;
    else {
      fresh.output = `${relative(pluginFolder, entry).split(sep).join('_').replace(/\.[cm]?tsx?$/, '')}-${sha256(built.code).slice(0, 16)}.mjs`;
      writeAtomically(join(cache, fresh.output), built.code);
    }
    writeAtomically(recordFile, `${JSON.stringify(fresh, null, 2)}\n`);
    if (fresh.output !== undefined) removeStaleOutputs(cache, fresh.output);
  } catch (error) {
    return { kind: 'unsupported', reason: `cannot write the compile cache ${cache}: ${describeError(error)}` };
  }
  if (built.kind === 'unsupported') return { kind: 'unsupported', reason: built.reason };
  return { kind: 'compiled', file: join(cache, fresh.output!) };
}

function readRecord(file: string): CacheRecord | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as CacheRecord;
  } catch {
    return undefined; // none yet, or torn by a crash: compile again
  }
}

function isCurrent(record: CacheRecord, pluginFolder: string, cache: string): boolean {
  if (record.key !== currentKey() || typeof record.inputs !== 'object' || record.inputs === null || !Array.isArray(record.packages)) return false;
  if (record.output !== undefined && !existsSync(join(cache, record.output))) return false;
  // A package installed since (a second copy inside the plugin's folder, say) would change what the entry imports.
  if (record.output !== undefined && record.packages.some((name) => packageFolderFrom(pluginFolder, name) !== packageFolderFrom(cache, name))) return false;
  for (const [path, hash] of Object.entries(record.inputs)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(resolve(pluginFolder, path));
    } catch {
      return false;
    }
    if (sha256(bytes) !== hash) return false;
  }
  return true;
}

/** Writes through a temporary file and a rename, so that a reader (another host, a crash) never sees half a file. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

function removeStaleOutputs(cache: string, keep: string): void {
  const stem = keep.replace(/-[0-9a-f]{16}\.mjs$/, '');
  for (const name of readdirSync(cache)) {
    if (name !== keep && name.startsWith(`${stem}-`) && name.endsWith('.mjs')) rmSync(join(cache, name), { force: true });
  }
}

interface Sources {
  inputs: Record<string, string>;
  packages: string[];
}

type Built =
  | ({ kind: 'built'; code: string } & Sources)
  // `lasting`: whether the reason holds until one of `inputs` changes (else nothing is cached).
  | ({ kind: 'unsupported'; reason: string; lasting: boolean } & Sources);

async function compile(entry: string, pluginFolder: string, cache: string): Promise<Built> {
  const esbuild = await import('esbuild');
  const sources: Sources = { inputs: {}, packages: [] };
  const problems: string[] = [];
  activeBuilds += 1;
  try {
    const result = await esbuild.build({
      entryPoints: [entry],
      absWorkingDir: pluginFolder,
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // The plugin class's name shows in logs and picks the plugin out of its module's exports.
      keepNames: true,
      // Stack traces name the plugin's .ts lines (process.setSourceMapsEnabled, see the caller).
      sourcemap: 'inline',
      // The output's place, for the source map's paths; write: false, so nothing lands there.
      outfile: join(cache, 'out.mjs'),
      tsconfigRaw: { compilerOptions: pluginCompilerOptions() } as never,
      logLevel: 'silent',
      metafile: true,
      plugins: [keepPluginFolderOnly(pluginFolder, cache, sources, problems)],
    });
    for (const [path, input] of Object.entries(result.metafile.inputs)) {
      if (input.format === 'cjs') problems.push(`${path} is a CommonJS module`);
    }
    const code = result.outputFiles[0]!.text;
    if (code.includes('Dynamic require of')) problems.push('it calls require(), which an ES module does not have');
    if (problems.length > 0) return { kind: 'unsupported', reason: problems.join('; '), ...sources, lasting: true };
    return { kind: 'built', code, ...sources };
  } catch (error) {
    // A syntax error, a missing file: tsx reports it the way a plugin author knows, with its
    // file and line. Not cached: the fix may be a file that is not among the inputs yet.
    return { kind: 'unsupported', reason: `esbuild could not compile it: ${describeError(error)}`, ...sources, lasting: false };
  } finally {
    activeBuilds -= 1;
    // The esbuild service is a child process of ~17 MiB: not kept once nothing is compiling.
    if (activeBuilds === 0) await esbuild.stop();
  }
}

function isInside(folder: string, path: string): boolean {
  return path.startsWith(folder + sep) && !path.slice(folder.length).split(sep).includes('node_modules');
}

/**
 * Bundles only the plugin's own files: packages and files outside its folder stay imports.
 * Collects every bundled source's hash and every package imported into `sources`, and what
 * the bundle (in `cache`) cannot keep into `problems`.
 */
function keepPluginFolderOnly(pluginFolder: string, cache: string, sources: Sources, problems: string[]): Plugin {
  const ownPackageName = packageNameOf(pluginFolder);
  return {
    name: 'moonglass-plugin-folder',
    setup(build: PluginBuild) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || (args.pluginData as { inner?: boolean } | undefined)?.inner === true) return undefined;
        const specifier = args.path;
        if (specifier.startsWith('#')) {
          problems.push(`${specifier} is a package.json "imports" name, which resolves only from the plugin's own files`);
          return { path: specifier, external: true };
        }
        if (!specifier.startsWith('.') && !isAbsolute(specifier) && !specifier.startsWith('file:')) {
          if (isBuiltin(specifier)) return { path: specifier, external: true };
          const name = packageName(specifier);
          if (name === ownPackageName) problems.push(`it imports its own package by name (${specifier})`);
          else if (!sources.packages.includes(name)) {
            sources.packages.push(name);
            const fromPlugin = packageFolderFrom(pluginFolder, name);
            const fromCache = packageFolderFrom(cache, name);
            if (fromPlugin !== fromCache) problems.push(`${name} is ${fromPlugin ?? 'not installed'} for the plugin but ${fromCache ?? 'not found'} from the compile cache ${cache}`);
          }
          return { path: specifier, external: true };
        }
        const resolved = await build.resolve(specifier, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: { inner: true } });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (isInside(pluginFolder, resolved.path)) return { path: resolved.path };
        if (/\.[cm]?tsx?$/.test(resolved.path)) problems.push(`it imports ${resolved.path}, a TypeScript file outside the plugin's folder`);
        return { path: pathToFileURL(resolved.path).href, external: true };
      });
      build.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        const loader = LOADERS[extname(args.path)];
        const bytes = readFileSync(args.path);
        sources.inputs[relative(pluginFolder, args.path).split(sep).join('/')] = sha256(bytes);
        if (loader === undefined) {
          problems.push(`it imports ${relative(pluginFolder, args.path)}, a kind of file the compile cache does not bundle`);
          return { contents: '', loader: 'empty' };
        }
        const source = bytes.toString('utf8');
        if (loader === 'json' || !source.includes(IMPORT_META)) return { contents: source, loader };
        return { contents: ownModuleUrls(build, source, args.path, loader, problems), loader: 'js' };
      });
    },
  };
}

/** `source` compiled with its import.meta.url, .filename and .dirname spelled out as its own file's. */
function ownModuleUrls(build: PluginBuild, source: string, file: string, loader: Loader, problems: string[]): string {
  const { code } = build.esbuild.transformSync(source, {
    loader,
    format: 'esm',
    target: 'node20',
    keepNames: true,
    sourcemap: 'inline',
    sourcefile: file,
    tsconfigRaw: { compilerOptions: pluginCompilerOptions() } as never,
    define: {
      [`${IMPORT_META}.url`]: JSON.stringify(pathToFileURL(file).href),
      [`${IMPORT_META}.filename`]: JSON.stringify(file),
      [`${IMPORT_META}.dirname`]: JSON.stringify(dirname(file)),
    },
  });
  const rest = /import\.meta(?:\.\w+)?/.exec(code.replace(/\/\/# sourceMappingURL=.*$/m, ''));
  if (rest !== null) problems.push(`${file} uses ${rest[0]}, which a bundled module cannot keep`);
  return code;
}

/** The package a bare specifier imports: `zod` of `zod/mini`, `@scope/name` of `@scope/name/sub`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The `name` of the package.json in `folder`, if any. */
function packageNameOf(folder: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}

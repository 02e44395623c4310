// After `tsc` has compiled src/ to dist/ (and copy-plugin-assets.mjs has run): replaces
// dist/'s ~420 JavaScript files with a few ES module files (esbuild), because Node's loader
// pays about a millisecond per file and a start imports most of them. The type declarations
// stay where tsc wrote them.
//
// What stays a file of its own, at the path tsc gave it: what is imported by a path rather
// than through an import of ours (the package's exports, the CLI, the adapter process, each
// adapter's entry and config, each built-in plugin's entry). The host's entries share code
// splitting chunks under dist/chunks/, so the CLI, `moonglass`, `moonglass/ndfc` and
// `moonglass/testing` see one copy of every class (a plugin's ToolPlugin is the host's).
//
// The adapter process and the adapters' factories are a second bundle with chunks of their
// own (dist/chunks/adapter-process-*), zod bundled in: see ADAPTER_PROCESS_BUNDLED.
//
// Bundled into the chunks: inversify (~370 files: the largest part of a start; plugins reach
// it through `moonglass` (inject, injectable, optional), and its decorators keep their
// metadata under string keys through reflect-metadata, so a second copy of inversify in a
// plugin would still agree with the host's), semver (~50 CommonJS files) and smol-toml, whose
// values no plugin shares with the host by identity. Every other package stays an import:
// plugins import zod themselves and must share the host's copy; better-sqlite3 is native;
// pino resolves its transports by file name; reflect-metadata is a global polyfill.
import { build, transformSync } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const DIST = resolve('dist');
const BUNDLED_PACKAGES = /^(inversify|@inversifyjs\/[^/]+|semver|smol-toml)(\/|$)/;
// Stand for dist/'s URL until each output file's place is known, and for a module's own URL
// (see keepModuleUrls).
const DIST_URL = '__moonglassDistUrl__';
const MODULE_URL = '__moonglassModuleUrl';

/** Folders under `folder` holding a `_manifest.json` (copied there by copy-plugin-assets.mjs, which runs first). */
function manifestFolders(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).map((name) => join(folder, name)).filter((path) => existsSync(join(path, '_manifest.json')));
}

function hostEntryPoints() {
  const entries = ['index.js', 'ndfc.js', 'testing.js', 'app/main.js'].map((file) => join(DIST, file));
  for (const adapter of manifestFolders(join(DIST, 'adapters'))) entries.push(join(adapter, 'config.js'));
  return entries;
}

/** What runs in an adapter process: its entry, and each adapter's factory, which it imports by path. */
function adapterProcessEntryPoints() {
  return [join(DIST, 'adapters', 'adapter-process.js'), ...manifestFolders(join(DIST, 'adapters')).map((adapter) => join(adapter, 'adapter.js'))];
}

function requireFiles(files) {
  const missing = files.filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`bundle-dist: tsc wrote no ${missing.map((file) => relative(DIST, file)).join(', ')}`);
}

/** The JavaScript tsc wrote (each file has its declarations beside it; copied assets such as the web console's app.js have none). */
function compiledFiles(folder) {
  return readdirSync(folder, { recursive: true })
    .filter((file) => file.endsWith('.js') && existsSync(join(folder, file.replace(/\.js$/, '.d.ts'))))
    .map((file) => join(folder, file));
}

function isBuiltInPluginFile(file) {
  return file.startsWith(join(DIST, 'plugins', 'built_in') + sep);
}

function isEmptyModule(file) {
  return transformSync(readFileSync(file, 'utf8'), { minify: true, format: 'esm' }).code.trim() === '';
}

// CommonJS packages. An ES module's `import` of CommonJS makes Node scan the package's source
// for its export names (cjs-module-lexer). A start imported four such packages: the scan ran
// long enough for V8 to optimize the scanner, and that compile's zones took ~10 MiB (those
// four alone: 63 MiB peak RSS imported, 51 MiB required). A bundled module reaches them
// through `require`, which scans nothing: each such import becomes a module of one line,
// `module.exports = require(name)`, with the `require` of REQUIRE_BANNER.
const COMMONJS_PACKAGES = /^(better-sqlite3|pino|reflect-metadata|ws)(\/|$)/;
const REQUIRE = '__moonglassRequire';
const REQUIRE_BANNER = `import { createRequire as __moonglassCreateRequire } from 'node:module';\nconst ${REQUIRE} = __moonglassCreateRequire(import.meta.url);`;

// Bare specifiers stay imports (CommonJS ones requires), but for the packages in `bundled`.
function barePackages(name, bundled) {
  return {
    name,
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) => {
        if (bundled.test(args.path)) return undefined;
        if (COMMONJS_PACKAGES.test(args.path)) return { path: args.path, namespace: 'commonjs-package' };
        return { path: args.path, external: true };
      });
      builder.onLoad({ filter: /.*/, namespace: 'commonjs-package' }, (args) => ({ contents: `module.exports = ${REQUIRE}(${JSON.stringify(args.path)});`, loader: 'js' }));
    },
  };
}
const externalPackages = barePackages('external-packages', BUNDLED_PACKAGES);

// An adapter process runs no plugin, so nothing there shares zod with anyone: it is bundled
// in, and esbuild keeps only the parts the OneBot codec uses (the package's entry loads all
// of zod, its 68 locales included; ~220 files and several MiB of every adapter process).
const ADAPTER_PROCESS_BUNDLED = /^(zod)(\/|$)/;
const adapterProcessPackages = barePackages('adapter-process-packages', new RegExp(`${BUNDLED_PACKAGES.source}|${ADAPTER_PROCESS_BUNDLED.source}`));

// `import.meta.url` keeps meaning the file tsc wrote (dist/admin/admin-server.js finds ./ui/,
// dist/adapters/find-adapter.js lists the adapter folders beside it), wherever esbuild puts
// the code: each module's own URL is spelled relative to dist/, and dist/'s URL relative to
// the output file the module ends up in. esbuild's define replaces the expression itself, not
// the same text in a string or a comment.
const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(DIST + sep)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta')) return { contents: source, loader: 'js' };
      const own = relative(DIST, args.path).split(sep).join('/');
      const { code } = transformSync(source, { loader: 'js', format: 'esm', define: { 'import.meta.url': MODULE_URL } });
      if (code.includes('import.meta')) throw new Error(`bundle-dist: ${own} uses import.meta beyond import.meta.url, which this script does not keep for bundled modules`);
      return { contents: `const ${MODULE_URL} = new URL(${JSON.stringify(own)}, ${DIST_URL}).href;\n${code}`, loader: 'js' };
    });
  },
};

// A built-in plugin is one file, so only its entry may ask for its own URL (any other module
// of the plugin would get the entry's).
const entryOnlyModuleUrls = (entry) => ({
  name: 'entry-only-module-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.js$/ }, (args) => {
      if (args.path !== entry && readFileSync(args.path, 'utf8').includes('import.meta')) {
        throw new Error(`bundle-dist: ${relative(DIST, args.path)} uses import.meta, which would mean ${relative(DIST, entry)} once the plugin is one file`);
      }
      return undefined;
    });
  },
});

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Class and function names show in logs and error messages (plugin classes, MoonglassError).
  keepNames: true,
  legalComments: 'inline',
  banner: { js: REQUIRE_BANNER },
  write: false,
  logLevel: 'warning',
};

// The host: the entries share chunks (one copy of every class). A module that none of them
// imports and that is not empty (tsc writes `export {};` for a file of types) is loaded by a
// path we do not know of here (a loader hook given to module.register, say): it becomes an
// entry too, so it stays at its path.
const hostEntries = hostEntryPoints();
requireFiles(hostEntries);
const hostBuild = (entryPoints, metafile) => build({
  ...common,
  entryPoints,
  outdir: DIST,
  outbase: DIST,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  metafile,
  plugins: [externalPackages, keepModuleUrls],
});
// The adapter process: a build of its own (the host's chunks would bring the host's
// imports along), with chunks of its own shared by its entry and the adapters' factories.
const adapterEntries = adapterProcessEntryPoints();
requireFiles(adapterEntries);
const adapterProcess = await build({
  ...common,
  entryPoints: adapterEntries,
  outdir: DIST,
  outbase: DIST,
  splitting: true,
  chunkNames: 'chunks/adapter-process-[name]-[hash]',
  metafile: true,
  plugins: [adapterProcessPackages, keepModuleUrls],
});
const inputsOf = (result) => Object.keys(result.metafile.inputs).map((input) => resolve(input));
const reached = new Set([...inputsOf(await hostBuild(hostEntries, true)), ...inputsOf(adapterProcess)]);
const loadedByPath = compiledFiles(DIST).filter((file) => !isBuiltInPluginFile(file) && !reached.has(file) && !isEmptyModule(file));
const host = await hostBuild([...hostEntries, ...loadedByPath], false);

// Each built-in plugin: one file with nothing but packages to import ('moonglass', zod ...),
// because a plugin folder is a unit that gets copied (moonglass/testing copies the built-ins
// into each test host's plugin root).
const plugins = [];
for (const folder of manifestFolders(join(DIST, 'plugins', 'built_in'))) {
  const entry = join(folder, 'plugin.js');
  requireFiles([entry]);
  plugins.push(build({ ...common, entryPoints: [entry], outfile: entry, plugins: [externalPackages, entryOnlyModuleUrls(entry)] }));
}
const outputs = [...host.outputFiles, ...adapterProcess.outputFiles.filter((output) => !output.path.endsWith('.meta.json')), ...(await Promise.all(plugins)).flatMap((result) => result.outputFiles)];

// V8 keeps a module's source text for as long as the module lives, at one byte a character
// when every character is Latin-1 and two otherwise: one 中 in a comment made the host
// chunk's resident copy 1.8 MB instead of 0.9. esbuild's output escapes strings to ASCII but
// keeps comments and regular expressions as written; this escapes what is left. `\uXXXX` is
// the same character in a comment, an identifier, a string, a template's value and a regular
// expression (with or without the u flag, a surrogate pair stays one character); only a
// template's raw text would change, so a file that reads one (String.raw) is refused.
function asciiOnly(text, path) {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  if (text.includes('String.raw')) throw new Error(`bundle-dist: ${relative(DIST, path)} uses String.raw and holds non-ASCII text, which escaping would change`);
  // An escaped character (`\【` in a regular expression) keeps one backslash: `\u3010`, not `\\u3010`.
  return text.replace(/(\\*)([^\x00-\x7f])/g, (_, backslashes, character) => `${backslashes.slice(backslashes.length % 2)}\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// tsc's files go; the bundle's take their places.
for (const file of compiledFiles(DIST)) rmSync(file);
for (const output of outputs) {
  const toDist = relative(dirname(output.path), DIST).split(sep).join('/');
  const distUrl = `new URL(${JSON.stringify(toDist === '' ? './' : `${toDist}/`)}, import.meta.url)`;
  mkdirSync(dirname(output.path), { recursive: true });
  writeFileSync(output.path, asciiOnly(output.text.replace(new RegExp(`\\b${DIST_URL}\\b`, 'g'), distUrl), output.path));
}
const loadedByPathNames = loadedByPath.map((file) => relative(DIST, file)).join(', ');
// On stderr: `npm pack --json` prints what prepack writes to stdout before its JSON.
console.error(`bundle-dist: ${outputs.length} JavaScript files in dist/ (${hostEntries.length + loadedByPath.length} host entries, ${adapterEntries.length} adapter-process entries${loadedByPath.length === 0 ? '' : `, of them loaded by path: ${loadedByPathNames}`}; ${plugins.length} built-in plugins)`);

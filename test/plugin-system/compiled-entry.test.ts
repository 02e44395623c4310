// Issue 20 ("ready < 1 s from the installed package"): a compiled host imports a TypeScript
// plugin's entry as JavaScript compiled once by esbuild and cached in its data folder,
// instead of registering tsx (about 0.2 s of every start). These run the cache itself against
// real files and check its output under plain `node`, which has no TypeScript loader at all.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compiledEntry } from '../../src/plugin-system/loader/compiled-entry.js';
import { compileCacheFolder } from '../../src/plugin-system/loader/compile-cache-folder.js';
import { changedPaths, snapshotTree } from '../package/support/file-tree.js';
import { projectRoot, useTempDir } from '../support/temp-dir.js';

const run = promisify(execFile);
const tempDir = useTempDir();

// Legacy decorators (experimentalDecorators): a method decorator gets (prototype, name, descriptor).
const PLUGIN_TS = `import * as z from 'zod';
import { describeAsset, shout } from './lib/words.js';

const marked: string[] = [];
function mark(label: string) {
  return (_target: object, key: string, _descriptor: PropertyDescriptor): void => {
    marked.push(\`\${label}:\${key}\`);
  };
}

export class EchoPlugin {
  @mark('tool')
  echo(text: string): string {
    return shout(z.string().parse(text));
  }
}

export const report = { marked, entryUrl: import.meta.url, asset: describeAsset(), echoed: new EchoPlugin().echo('moon') };
`;
const WORDS_TS = `import { readFileSync } from 'node:fs';
export type Style = 'loud';
export function shout(text: string, style: Style = 'loud'): string {
  return style === 'loud' ? text.toUpperCase() : text;
}
export function fail(): never {
  throw new Error('failed in words.ts');
}
export function describeAsset(): { url: string; dirname: string; text: string } {
  return { url: import.meta.url, dirname: import.meta.dirname, text: readFileSync(new URL('./asset.txt', import.meta.url), 'utf8').trim() };
}
`;

/** Writes `files` (paths relative to `folder`, sub-folders made as needed). */
function writeFiles(folder: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
}

/** A bot-project-like folder: node_modules with zod, a plugin under plugins/echo, the cache under data/. */
function botWithPlugin(files: Record<string, string> = {}): { root: string; folder: string; entry: string; cacheRoot: string } {
  const root = tempDir();
  mkdirSync(join(root, 'node_modules'));
  symlinkSync(join(projectRoot, 'node_modules', 'zod'), join(root, 'node_modules', 'zod'));
  const folder = join(root, 'plugins', 'echo');
  writeFiles(folder, { '_manifest.json': '{}\n', 'plugin.ts': PLUGIN_TS, 'lib/words.ts': WORDS_TS, 'lib/asset.txt': 'beside words.ts\n', ...files });
  return { root, folder, entry: join(folder, 'plugin.ts'), cacheRoot: join(root, 'data', 'cache', 'plugins') };
}

/** Imports `file` in a plain node process and prints its `report` export. */
async function reportOf(file: string): Promise<Record<string, unknown>> {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(JSON.stringify(m.report));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('[issue 20] the compile cache of TypeScript plugin entries', () => {
  it('compiles the entry and its local files into one module that plain node runs: decorators applied, each file keeps its own import.meta', async () => {
    const { folder, entry, cacheRoot } = botWithPlugin();
    const compiled = await compiledEntry(entry, folder, cacheRoot);
    expect(compiled.kind).toBe('compiled');
    if (compiled.kind === 'unsupported') return;
    expect(compiled.file.startsWith(join(cacheRoot, 'echo-'))).toBe(true);
    expect(compiled.file.endsWith('.mjs')).toBe(true);

    const report = await reportOf(compiled.file);
    expect(report['marked']).toEqual(['tool:echo']);
    expect(report['echoed']).toBe('MOON');
    expect(report['entryUrl']).toBe(pathToFileURL(entry).href);
    expect(report['asset']).toEqual({ url: pathToFileURL(join(folder, 'lib', 'words.ts')).href, dirname: join(folder, 'lib'), text: 'beside words.ts' });
  });

  it("carries a source map: under --enable-source-maps, a stack trace names the plugin's .ts file and line", async () => {
    const { folder, entry, cacheRoot } = botWithPlugin({ 'plugin.ts': "import { fail } from './lib/words.js';\nexport function run(): void {\n  fail();\n}\n" });
    const compiled = await compiledEntry(entry, folder, cacheRoot);
    if (compiled.kind === 'unsupported') throw new Error(compiled.reason);
    const script = `const m = await import(${JSON.stringify(pathToFileURL(compiled.file).href)}); try { m.run(); } catch (error) { console.log(error.stack); }`;
    const { stdout } = await run(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script]);
    expect(stdout).toContain(`${join(folder, 'lib', 'words.ts')}:7:`);
    expect(stdout).toContain(`${join(folder, 'plugin.ts')}:3:`);
  });

  it('answers from the cache while no source changed, and compiles again (dropping the old output) when one did', async () => {
    const { folder, entry, cacheRoot } = botWithPlugin();
    const first = await compiledEntry(entry, folder, cacheRoot);
    const again = await compiledEntry(entry, folder, cacheRoot);
    expect(first.kind).toBe('compiled');
    expect(again).toEqual({ ...first, kind: 'cached' });

    writeFileSync(join(folder, 'lib', 'words.ts'), WORDS_TS.replace('text.toUpperCase()', "`${text.toUpperCase()}!`"));
    const changed = await compiledEntry(entry, folder, cacheRoot);
    expect(changed.kind).toBe('compiled');
    if (changed.kind === 'unsupported' || first.kind === 'unsupported') return;
    expect(changed.file).not.toBe(first.file);
    expect(existsSync(first.file)).toBe(false);
    expect((await reportOf(changed.file))['echoed']).toBe('MOON!');
  });

  it('never writes into the plugin folder', async () => {
    const { folder, entry, cacheRoot } = botWithPlugin();
    const before = snapshotTree(folder);
    expect((await compiledEntry(entry, folder, cacheRoot)).kind).toBe('compiled');
    expect(changedPaths(before, snapshotTree(folder))).toEqual([]);
  });

  it('compiles again when the cache record is torn or its output is gone', async () => {
    const { folder, entry, cacheRoot } = botWithPlugin();
    const first = await compiledEntry(entry, folder, cacheRoot);
    if (first.kind === 'unsupported') throw new Error(first.reason);
    const cache = compileCacheFolder(cacheRoot, folder);
    writeFileSync(join(cache, 'plugin.ts.json'), '{"key": ');
    expect((await compiledEntry(entry, folder, cacheRoot)).kind).toBe('compiled');
    for (const name of readdirSync(cache)) if (name.endsWith('.mjs')) writeFileSync(join(cache, name), '');
    const record = JSON.parse(readFileSync(join(cache, 'plugin.ts.json'), 'utf8')) as { output: string };
    rmSync(join(cache, record.output));
    const redone = await compiledEntry(entry, folder, cacheRoot);
    expect(redone.kind).toBe('compiled');
    if (redone.kind !== 'unsupported') expect((await reportOf(redone.file))['echoed']).toBe('MOON');
  });

  it('leaves to tsx, and remembers so, a file that uses import.meta beyond url, filename and dirname', async () => {
    const { folder, entry, cacheRoot } = botWithPlugin({ 'lib/where.ts': 'export const where = import.meta.resolve("./asset.txt");\n', 'plugin.ts': `${PLUGIN_TS}export { where } from './lib/where.js';\n` });
    const compiled = await compiledEntry(entry, folder, cacheRoot);
    expect(compiled).toEqual({ kind: 'unsupported', reason: expect.stringMatching(/lib\/where\.ts uses import\.meta\.resolve/) });
    const record = JSON.parse(readFileSync(join(compileCacheFolder(cacheRoot, folder), 'plugin.ts.json'), 'utf8')) as { unsupported?: string; output?: string };
    expect(record.output).toBeUndefined();
    expect(record.unsupported).toMatch(/import\.meta\.resolve/);
    expect(await compiledEntry(entry, folder, cacheRoot)).toEqual(compiled);
  });

  it('leaves to tsx a plugin whose code it cannot compile, and does not remember it: the fix may be a file not written yet', async () => {
    const { folder, entry, cacheRoot } = botWithPlugin({ 'plugin.ts': "import { later } from './later.js';\nexport const report = { later };\n" });
    const missing = await compiledEntry(entry, folder, cacheRoot);
    expect(missing).toEqual({ kind: 'unsupported', reason: expect.stringMatching(/esbuild could not compile it: [\s\S]*later\.js/) });
    expect(existsSync(join(compileCacheFolder(cacheRoot, folder), 'plugin.ts.json'))).toBe(false);
    writeFileSync(join(folder, 'later.ts'), "export const later: string = 'written';\n");
    const fixed = await compiledEntry(entry, folder, cacheRoot);
    expect(fixed.kind).toBe('compiled');
    if (fixed.kind !== 'unsupported') expect(await reportOf(fixed.file)).toEqual({ later: 'written' });
  });

  it('keeps a JavaScript file outside the plugin folder an import of that file, and leaves to tsx a TypeScript one', async () => {
    const { root, folder, entry, cacheRoot } = botWithPlugin({ 'plugin.ts': "import { shared } from '../../shared/shared.js';\nexport const report = { shared };\n" });
    writeFiles(join(root, 'shared'), { 'shared.js': "export const shared = 'from outside';\n" });
    const compiled = await compiledEntry(entry, folder, cacheRoot);
    if (compiled.kind === 'unsupported') throw new Error(compiled.reason);
    expect(readFileSync(compiled.file, 'utf8')).toContain(pathToFileURL(join(root, 'shared', 'shared.js')).href);
    expect(await reportOf(compiled.file)).toEqual({ shared: 'from outside' });

    const other = botWithPlugin({ 'plugin.ts': "import { shared } from '../../shared/shared.js';\nexport const report = { shared };\n" });
    writeFiles(join(other.root, 'shared'), { 'shared.ts': "export const shared: string = 'typed';\n" });
    expect(await compiledEntry(other.entry, other.folder, other.cacheRoot)).toEqual({ kind: 'unsupported', reason: expect.stringMatching(/shared\.ts, a TypeScript file outside the plugin's folder/) });
  });

  it("leaves to tsx a plugin that imports a package from a node_modules of its own, which the cached file would not find, also once cached", async () => {
    const tiny = { 'node_modules/tiny/package.json': '{"name":"tiny","type":"module","exports":"./index.js"}\n', 'node_modules/tiny/index.js': 'export const tiny = 1;\n' };
    const { folder, entry, cacheRoot } = botWithPlugin({ ...tiny, 'plugin.ts': "import { tiny } from 'tiny';\nexport const report = { tiny };\n" });
    expect(await compiledEntry(entry, folder, cacheRoot)).toEqual({ kind: 'unsupported', reason: expect.stringMatching(/tiny is .*plugins\/echo\/node_modules\/tiny for the plugin but not found from the compile cache/) });

    // Cached first, then a second zod installed inside the plugin's folder: the entry's zod is no longer the cache's.
    const other = botWithPlugin();
    expect((await compiledEntry(other.entry, other.folder, other.cacheRoot)).kind).toBe('compiled');
    writeFiles(other.folder, { 'node_modules/zod/package.json': '{"name":"zod","type":"module","exports":"./index.js"}\n', 'node_modules/zod/index.js': 'export const string = 1;\n' });
    expect(await compiledEntry(other.entry, other.folder, other.cacheRoot)).toEqual({ kind: 'unsupported', reason: expect.stringMatching(/zod is .*plugins\/echo\/node_modules\/zod for the plugin but .*node_modules\/zod from the compile cache/) });
  });

  it('leaves to tsx, saying why, a plugin whose cache is in a data folder away from its packages, or cannot be written', async () => {
    const { folder, entry } = botWithPlugin();
    const away = join(tempDir(), 'cache', 'plugins');
    expect(await compiledEntry(entry, folder, away)).toEqual({ kind: 'unsupported', reason: expect.stringMatching(/^zod is .*node_modules\/zod for the plugin but not found from the compile cache/) });

    const unwritable = botWithPlugin();
    mkdirSync(join(unwritable.root, 'data'));
    writeFileSync(join(unwritable.root, 'data', 'cache'), 'a file where the cache folder would go\n');
    expect(await compiledEntry(unwritable.entry, unwritable.folder, unwritable.cacheRoot)).toEqual({ kind: 'unsupported', reason: expect.stringMatching(/^cannot write the compile cache .*data\/cache\/plugins\/echo-[0-9a-f]{12}: /) });
  });
});

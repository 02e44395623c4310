// A module resolve hook, registered by enableFreshPluginGraphs (it runs on Node's loader
// thread). Every import of a plugin entry has its own URL (`?moonglass_load=N`, see
// importPluginEntry); this gives the same query to the files the entry imports by a relative
// path inside the plugin's folder (the nearest folder up with a _manifest.json), and to
// theirs, so that a reload runs the plugin's helpers anew too, not only its entry. Packages
// (node_modules) and the host itself ('moonglass', or a built-in's relative import of host
// code outside its folder) keep one instance.
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const QUERY = 'moonglass_load';
const pluginFolders = new Map<string, string | undefined>();

interface Resolved {
  url: string;
  format?: string | null | undefined;
  shortCircuit?: boolean | undefined;
}
type NextResolve = (specifier: string, context: { parentURL?: string | undefined }) => Promise<Resolved>;

/** The nearest folder at or above `file`'s with a `_manifest.json`. */
function pluginFolderOf(file: string): string | undefined {
  const start = dirname(file);
  if (pluginFolders.has(start)) return pluginFolders.get(start);
  let folder: string | undefined;
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '_manifest.json'))) {
      folder = dir;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  pluginFolders.set(start, folder);
  return folder;
}

export async function resolve(specifier: string, context: { parentURL?: string | undefined }, next: NextResolve): Promise<Resolved> {
  const resolved = await next(specifier, context);
  const { parentURL } = context;
  if (!/^\.\.?\//.test(specifier) || parentURL === undefined || !parentURL.startsWith('file:') || !resolved.url.startsWith('file:')) return resolved;
  const load = new URL(parentURL).searchParams.get(QUERY);
  if (load === null) return resolved;
  const child = new URL(resolved.url);
  if (child.searchParams.has(QUERY)) return resolved;
  const childPath = fileURLToPath(child);
  if (childPath.includes(`${sep}node_modules${sep}`)) return resolved;
  const folder = pluginFolderOf(fileURLToPath(parentURL));
  if (folder === undefined || !childPath.startsWith(folder + sep)) return resolved;
  child.searchParams.set(QUERY, load);
  return { ...resolved, url: child.href };
}

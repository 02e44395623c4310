import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as z from 'zod';
import { describeError } from '../kernel/errors/describe-error.js';
import type { PluginManifest } from '../plugin-system/manifest/plugin-manifest.js';
import { MANIFEST_FILE_NAME, readPluginManifest } from '../plugin-system/manifest/read-plugin-manifest.js';
import { AdapterError } from './errors/adapter-error.js';

/** Where adapters live: `src/adapters/<name>/` (or `dist/adapters/<name>/` when built). */
export const ADAPTERS_ROOT = fileURLToPath(new URL('.', import.meta.url));

/** An adapter found by name, with its manifest and config model, ready to be started. */
export interface ResolvedAdapter {
  name: string;
  folder: string;
  manifest: PluginManifest;
  configSchema: z.ZodObject;
  configHeader: readonly string[];
}

const NAME = /^[a-z0-9_]+$/;

/** The adapter names under `root`: folders that hold a `_manifest.json`, sorted. */
export function listAdapters(root = ADAPTERS_ROOT): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && NAME.test(entry.name) && existsSync(join(root, entry.name, MANIFEST_FILE_NAME)))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Finds the adapter `name` under `root`: its manifest must say `plugin_type: "adapter"` and
 * its folder must hold `config.ts` (or `.js`) exporting `configSchema` and `configHeader`
 * beside the process entry `adapter.ts`. Throws `AdapterError` naming what is wrong.
 */
export async function resolveAdapter(name: string, root = ADAPTERS_ROOT): Promise<ResolvedAdapter> {
  const known = () => `known adapters: ${listAdapters(root).join(', ') || 'none'}`;
  if (!NAME.test(name)) throw new AdapterError(name, `not an adapter name (lowercase letters, digits and _ only); ${known()}`);
  const folder = join(root, name);
  if (!existsSync(join(folder, MANIFEST_FILE_NAME))) throw new AdapterError(name, `no such adapter in ${root}; ${known()}`);
  let manifest: PluginManifest;
  try {
    manifest = readPluginManifest(folder);
  } catch (error) {
    throw new AdapterError(name, describeError(error), { cause: error });
  }
  if (manifest.plugin_type !== 'adapter') {
    throw new AdapterError(name, `${join(folder, MANIFEST_FILE_NAME)}: plugin_type must be "adapter", got "${manifest.plugin_type}"`);
  }
  const configFile = ['config.ts', 'config.js'].map((file) => join(folder, file)).find((file) => existsSync(file));
  if (configFile === undefined) throw new AdapterError(name, `${folder} has no config.ts or config.js`);
  let module: { configSchema?: unknown; configHeader?: unknown };
  try {
    module = (await import(pathToFileURL(configFile).href)) as typeof module;
  } catch (error) {
    throw new AdapterError(name, `${configFile} failed to import: ${describeError(error)}`, { cause: error });
  }
  const schema = module.configSchema as z.ZodObject | undefined;
  if (schema === undefined || typeof (schema as { safeParse?: unknown }).safeParse !== 'function') {
    throw new AdapterError(name, `${configFile} must export configSchema (a zod object)`);
  }
  const header = Array.isArray(module.configHeader) ? (module.configHeader as string[]) : [`Settings of the ${name} adapter.`];
  return { name, folder, manifest, configSchema: schema, configHeader: header };
}

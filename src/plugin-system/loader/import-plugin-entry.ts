import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeError } from '../../kernel/errors/describe-error.js';
import { PluginEntryError } from '../errors/plugin-entry-error.js';
import type { PluginManifest } from '../manifest/plugin-manifest.js';
import { isToolPluginClass, type ToolPlugin } from '../tool-plugin.js';
import { type EntryImportOptions, importEntryModule } from './typescript-loader.js';

export const ENTRY_FILE_NAMES = ['plugin.ts', 'plugin.js'] as const;

export type PluginClass = (new (manifest: PluginManifest) => ToolPlugin<unknown>) & { configModel?: unknown; name: string };

// Every import gets its own URL: a module whose evaluation threw stays cached as failed,
// so a retry with the same URL would not run the code again.
let importCount = 0;

/** The entry file of a plugin folder: `plugin.ts`, else `plugin.js`. */
export function findEntryFile(folder: string): string {
  for (const name of ENTRY_FILE_NAMES) {
    const file = join(folder, name);
    if (existsSync(file)) return file;
  }
  throw new PluginEntryError(folder, `no entry file: expected ${ENTRY_FILE_NAMES.join(' or ')}`);
}

/**
 * Imports a plugin's entry (TypeScript runs without a build step) and returns its one
 * exported `ToolPlugin` subclass. None, or several, is an error listing what was found.
 * `options`: how a compiled host compiles a TypeScript entry (see `importEntryModule`).
 */
export async function importPluginEntry(folder: string, options: EntryImportOptions = {}): Promise<PluginClass> {
  const file = findEntryFile(folder);
  let module: Record<string, unknown>;
  try {
    importCount += 1;
    module = (await importEntryModule(file, `${pathToFileURL(file).href}?moonglass_load=${importCount}`, options)) as Record<string, unknown>;
  } catch (error) {
    throw new PluginEntryError(folder, `importing ${file} failed: ${describeError(error)}`, { cause: error });
  }
  return findPluginClass(folder, module);
}

/** The single `ToolPlugin` subclass among a module's exports. */
export function findPluginClass(folder: string, module: Record<string, unknown>): PluginClass {
  const classes = [...new Set(Object.values(module).filter(isToolPluginClass))] as PluginClass[];
  if (classes.length === 1) return classes[0]!;
  if (classes.length === 0) {
    const found = Object.entries(module).map(([name, value]) => `${name} (${typeof value === 'function' ? 'function or class' : typeof value})`);
    throw new PluginEntryError(
      folder,
      `插件入口没有导出 ToolPlugin 子类 (no exported class extends ToolPlugin); exports found: ${found.length === 0 ? 'none' : found.join(', ')}`,
    );
  }
  throw new PluginEntryError(
    folder,
    `插件入口定义了多个 ToolPlugin 子类，入口有歧义：${classes.map((value) => value.name).join('、')} (export exactly one)`,
  );
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PluginRoot } from '../plugin-system/discovery/plugin-root.js';

const PLUGIN_CONFIG_FILE = 'config.toml';

/** The text of every plugin folder's `config.toml` (undefined when it has none), by file. */
export type PluginConfigSnapshot = ReadonlyMap<string, string | undefined>;

/** A plugin `config.toml` that was written (`created`) or completed with missing fields (`updated`). */
export interface PluginConfigChange {
  file: string;
  change: 'created' | 'updated';
}

/** Reads the `config.toml` of every folder under the plugin roots. */
export function snapshotPluginConfigs(roots: readonly PluginRoot[]): PluginConfigSnapshot {
  const snapshot = new Map<string, string | undefined>();
  for (const root of roots) {
    let names: string[];
    try {
      names = readdirSync(root.path, { withFileTypes: true }).filter((entry) => entry.isDirectory() || entry.isSymbolicLink()).map((entry) => entry.name);
    } catch {
      continue; // a missing root holds no plugin
    }
    for (const name of names) {
      const file = join(root.path, name, PLUGIN_CONFIG_FILE);
      snapshot.set(file, existsSync(file) ? readFileSync(file, 'utf8') : undefined);
    }
  }
  return snapshot;
}

/** The files that differ between two snapshots, in the order of `after`. */
export function pluginConfigChanges(before: PluginConfigSnapshot, after: PluginConfigSnapshot): PluginConfigChange[] {
  const changes: PluginConfigChange[] = [];
  for (const [file, text] of after) {
    const previous = before.get(file);
    if (text === undefined || text === previous) continue;
    changes.push({ file, change: previous === undefined ? 'created' : 'updated' });
  }
  return changes;
}

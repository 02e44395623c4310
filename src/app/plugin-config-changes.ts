import { existsSync, readFileSync } from 'node:fs';
import { pluginConfigFile } from '../plugin-system/config/plugin-config-file.js';
import { listPluginFolders } from '../plugin-system/discovery/list-plugin-folders.js';
import type { PluginRoot } from '../plugin-system/discovery/plugin-root.js';
import { readPluginManifest } from '../plugin-system/manifest/read-plugin-manifest.js';

/** The text of every plugin's config file (undefined when it has none), by file. */
export type PluginConfigSnapshot = ReadonlyMap<string, string | undefined>;

/** A plugin config file that was written (`created`) or completed with missing fields (`updated`). */
export interface PluginConfigChange {
  file: string;
  change: 'created' | 'updated';
}

/**
 * Reads the config file of every plugin the roots hold, where the host keeps it: beside the
 * manifest, or `<configDir>/plugins/<id>.toml` for a folder that is not the owner's to write
 * (see `pluginConfigFile`). A folder whose manifest cannot be read gets no config file.
 */
export function snapshotPluginConfigs(roots: readonly PluginRoot[], configDir: string): PluginConfigSnapshot {
  const snapshot = new Map<string, string | undefined>();
  for (const root of roots) {
    for (const folder of listPluginFolders(root)) {
      let id: string;
      try {
        id = readPluginManifest(folder).id;
      } catch {
        continue; // discovery skips it before any config is written
      }
      const file = pluginConfigFile(folder, id, configDir);
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

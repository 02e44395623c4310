import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { PLUGIN_CONFIG_FILE_NAME } from './plugin-config.js';

/** The folder under the config folder that holds the config files of plugins whose own folder is not theirs to write. */
export const PLUGINS_CONFIG_FOLDER = 'plugins';

/**
 * True when a plugin keeps its `config.toml` beside its manifest: its folder is writable and
 * not inside `node_modules/`. A package installed by npm is npm's to replace (an update or a
 * reinstall would throw the owner's settings away), and a read-only install cannot be written.
 */
export function configBesideCode(folder: string): boolean {
  if (resolve(folder).split(sep).includes('node_modules')) return false;
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The one place that says where a plugin's config file is: `<folder>/config.toml` for a
 * plugin folder the owner controls (`plugins/<name>/`, the built-ins of a checkout), else
 * `<configDir>/plugins/<id>.toml` (a plugin package in `node_modules/`, the built-ins of an
 * installed moonglass, a read-only folder).
 */
export function pluginConfigFile(folder: string, pluginId: string, configDir: string): string {
  return configBesideCode(folder) ? join(folder, PLUGIN_CONFIG_FILE_NAME) : join(configDir, PLUGINS_CONFIG_FOLDER, `${pluginId}.toml`);
}

/**
 * Creates the folder of a config file about to be written when it does not exist
 * (`config/plugins/` on first use). An existing path is left for the write to judge, so a
 * plugin path that is not a folder fails there with its own reason.
 */
export function ensureConfigFolder(file: string): void {
  const folder = dirname(file);
  if (!existsSync(folder)) mkdirSync(folder, { recursive: true });
}

import { join } from 'node:path';
import type * as z from 'zod';
import { readTomlFile } from '../../kernel/config/read-toml-file.js';
import { importPluginEntry } from '../loader/import-plugin-entry.js';
import type { ToolPlugin } from '../tool-plugin.js';
import { configModelOf } from './config-model-of.js';
import { PLUGIN_CONFIG_FILE_NAME } from './plugin-config.js';

/** A plugin's folder, config file, config model and current settings, for the web console's form. */
export interface PluginConfigView {
  folder: string;
  /** Where its settings are read and saved (see `pluginConfigFile`). */
  file: string;
  model: z.ZodObject;
  values: Record<string, unknown>;
}

/**
 * The settings of the plugin in `folder`: the loaded plugin's own, or, when it is not loaded,
 * what its config file holds (defaults where it does not validate).
 */
export async function readPluginConfigView(folder: string, loaded: ToolPlugin<unknown> | undefined, file: string = join(folder, PLUGIN_CONFIG_FILE_NAME)): Promise<PluginConfigView> {
  if (loaded !== undefined) {
    const model = configModelOf(loaded.constructor as unknown as { configModel?: unknown; name: string });
    return { folder, file, model, values: { ...(loaded.config as Record<string, unknown>) } };
  }
  const model = configModelOf(await importPluginEntry(folder));
  const table = readTomlFile(file)?.['plugin'];
  const parsed = model.safeParse(typeof table === 'object' && table !== null ? table : {});
  return { folder, file, model, values: (parsed.success ? parsed.data : model.parse({})) as Record<string, unknown> };
}

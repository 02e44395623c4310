import * as z from 'zod';

/**
 * The base of every plugin config model. It carries the plugin's switch, so a plugin that
 * declares no model of its own still has one (default: enabled). Extend it:
 *
 * ```ts
 * const MyConfig = PluginConfig.extend({
 *   greeting: z.string().default('你好').describe('问候语，会出现在回复开头'),
 * });
 * ```
 *
 * Every field needs a default (the host generates `config.toml` from them) and a
 * `.describe()` text, which becomes the comment above the field in the file.
 */
export const PluginConfig = z.object({
  enabled: z.boolean().default(true).describe('是否启用本插件；false 时宿主不会加载它'),
});

/** A plugin config model: `PluginConfig` or an object schema extending it. */
export type PluginConfigModel = z.ZodObject;

/** The name of the generated configuration file inside a plugin's folder. */
export const PLUGIN_CONFIG_FILE_NAME = 'config.toml';

import type * as z from 'zod';
import { PluginConfig } from './plugin-config.js';

/** A plugin class's config model (`static configModel`, default `PluginConfig`); it must have `enabled`. */
export function configModelOf(PluginClass: { configModel?: unknown; name: string }): z.ZodObject {
  const model = PluginClass.configModel ?? PluginConfig;
  const shape = (model as { shape?: Record<string, unknown> }).shape;
  if (shape === undefined || !('enabled' in shape)) {
    throw new TypeError(`${PluginClass.name}.configModel must be a zod object extending PluginConfig (it needs the "enabled" field)`);
  }
  return model as z.ZodObject;
}

import type * as z from 'zod';
import type { PluginConfigModel } from './plugin-config.js';
import { PluginConfigError } from './plugin-config-error.js';

/**
 * The model's defaults (what it makes of an empty `[plugin]` table). A model with a
 * required field that has no default, or whose defaults break its own rules, has none:
 * that throws `PluginConfigError` naming the first such field.
 */
export function pluginConfigDefaults<M extends PluginConfigModel>(model: M, pluginId: string, file: string): z.output<M> {
  const result = model.safeParse({});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  const reason = field === '' ? `rejects its own defaults (${issue.message})` : `has no usable default (${issue.message})`;
  throw new PluginConfigError(pluginId, file, field, reason, { cause: result.error });
}

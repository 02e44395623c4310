import type * as z from 'zod';
import { configIssues } from '../../kernel/config/validate-config.js';
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
  // Secret-aware: a custom message on a secret field may quote the value.
  const issue = configIssues(result.error, model, {})[0]!;
  const field = issue.path;
  const reason = field === '' ? `rejects its own defaults (${issue.reason})` : `has no usable default (${issue.reason})`;
  throw new PluginConfigError(pluginId, file, field, reason, { cause: result.error });
}

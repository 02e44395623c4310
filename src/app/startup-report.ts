import { SideEffect } from '../tools/side-effect.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';
import type { Host } from './create-host.js';
import { pluginLabel } from './plugin-label.js';
import { formatLocation } from '../kernel/errors/error-location.js';
import { relative, isAbsolute } from 'node:path';

/** A path as a person in the project folder would type it. */
function relativeToCwd(file: string): string {
  const shown = relative(process.cwd(), file);
  return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? file : shown;
}

/** One readable line per plugin state: what loaded, what is off, what failed and why. */
export function describePlugins(statuses: readonly PluginStatus[]): string[] {
  const lines: string[] = [];
  const loaded = statuses.filter((status) => status.state === 'loaded');
  lines.push(`plugins loaded (${loaded.length}): ${loaded.map(pluginLabel).join(', ') || 'none'}`);
  const disabled = statuses.filter((status) => status.state === 'disabled');
  if (disabled.length > 0) lines.push(`plugins switched off in their config.toml: ${disabled.map(pluginLabel).join(', ')}`);
  for (const status of statuses.filter((entry) => entry.state === 'failed' || entry.state === 'skipped')) {
    const at = status.location === undefined ? '' : ` (at ${formatLocation({ ...status.location, file: relativeToCwd(status.location.file) })})`;
    lines.push(`plugin ${pluginLabel(status)} ${status.state} (${status.stage}): ${(status.reason ?? '').split('\n').join(' ')}${at}`);
  }
  return lines;
}

/**
 * The tools a plugin declared that the model is not offered because of their side-effect
 * tier: reversible ones not named in `features.toml [tools] reversible_enabled`, sorted.
 * Asked of the registry itself, with each tool's own capabilities granted.
 */
export function toolsHiddenByTier(tools: ToolRegistry): string[] {
  return tools
    .list()
    .filter(({ definition }) => definition.sideEffect === SideEffect.REVERSIBLE && !tools.isOffered(definition.name, new Set(definition.capabilities)))
    .map(({ definition }) => definition.name);
}

/** `reversible, not enabled: add_memo — enable in …`, or undefined when no tool is hidden. */
export function describeHiddenTools(names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  return `reversible, not enabled: ${names.join(', ')} — enable in features.toml [tools] reversible_enabled`;
}

/** Which model answers: says plainly when it is the offline demo model. */
export function describeModel(host: Host): string {
  if (host.chat.llm.offline) {
    return `model: the offline demo model (scripted replies, not a real LLM). Add a provider to ${host.info.configDir}/models.toml to talk to a real one.`;
  }
  const { models, tasks } = host.chat.models;
  const actor = tasks['actor']?.models ?? [];
  if (actor.length === 0) {
    return `model for replies (task actor): none — ${host.info.configDir}/models.toml [tasks.actor] lists no models, so every reply fails (MG_LLM_TASK) until it does`;
  }
  const named = actor.map((name) => {
    const model = models[name];
    return model === undefined ? name : `${name} (${model.model} via ${model.provider})`;
  });
  return `model for replies (task actor): ${named.join(', then ')}`;
}

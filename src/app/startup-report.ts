import { basename } from 'node:path';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';
import type { Host } from './create-host.js';

/** One readable line per plugin state: what loaded, what is off, what failed and why. */
export function describePlugins(statuses: readonly PluginStatus[]): string[] {
  const name = (status: PluginStatus) => status.id ?? basename(status.folder);
  const lines: string[] = [];
  const loaded = statuses.filter((status) => status.state === 'loaded');
  lines.push(`plugins loaded (${loaded.length}): ${loaded.map(name).join(', ') || 'none'}`);
  const disabled = statuses.filter((status) => status.state === 'disabled');
  if (disabled.length > 0) lines.push(`plugins switched off in their config.toml: ${disabled.map(name).join(', ')}`);
  for (const status of statuses.filter((entry) => entry.state === 'failed' || entry.state === 'skipped')) {
    lines.push(`plugin ${name(status)} ${status.state} (${status.stage}): ${(status.reason ?? '').split('\n').join(' ')}`);
  }
  return lines;
}

/** Which model answers: says plainly when it is the offline demo model. */
export function describeModel(host: Host): string {
  if (host.chat.llm.offline) {
    return `model: the offline demo model (scripted replies, not a real LLM). Add a provider to ${host.info.configDir}/models.toml to talk to a real one.`;
  }
  const { models, tasks } = host.chat.models;
  const actor = tasks['actor']?.models ?? Object.keys(models);
  const named = actor.map((name) => {
    const model = models[name];
    return model === undefined ? name : `${name} (${model.model} via ${model.provider})`;
  });
  return `model for replies (task actor): ${named.join(', then ') || 'none configured'}`;
}

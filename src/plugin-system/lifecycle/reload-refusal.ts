import { InvalidArgumentError } from '../../kernel/errors/invalid-argument-error.js';
import type { PluginStatus } from '../discovery/plugin-status.js';

const RELOADABLE_STAGES: ReadonlySet<PluginStatus['stage']> = new Set(['manifest', 'load', 'config', 'runtime', 'dependencies']);

/**
 * Why `PluginManager.reload(pluginId)` refuses, or undefined when it may reload: a plugin
 * that loaded, is switched off, was skipped for a dependency, or failed at load, config or
 * run time may; one refused at discovery (location, type, duplicate id, version) may not.
 */
export function reloadRefusal(pluginId: string, status: PluginStatus | undefined): InvalidArgumentError | undefined {
  if (status !== undefined && (status.state === 'loaded' || status.state === 'disabled' || RELOADABLE_STAGES.has(status.stage))) return undefined;
  return new InvalidArgumentError(
    'PluginManager.reload',
    'pluginId',
    pluginId,
    status === undefined
      ? 'the id of a discovered plugin'
      : `a plugin that loaded, is switched off, was skipped for a dependency, or failed at load or config (it was ${status.state} at the ${status.stage} step)`,
  );
}

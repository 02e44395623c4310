import { existsSync } from 'node:fs';
import { formatLocation } from '../../kernel/errors/error-location.js';
import type { Clock } from '../../kernel/time/clock.js';
import type { PluginStatus } from '../../plugin-system/discovery/plugin-status.js';
import type { ReloadFailure } from '../../plugin-system/lifecycle/reload-outcome.js';
import type { PluginManager } from '../../plugin-system/plugin-manager.js';
import { pluginLabel } from '../plugin-label.js';

/** One line for the log: what a change of a plugin folder did. */
export interface FolderReloadReport {
  level: 'info' | 'warn' | 'error';
  line: string;
  fields: Record<string, unknown>;
}

export interface ReloadPluginFolderOptions {
  plugins: PluginManager;
  clock: Clock;
  /** The plugin folder (absolute). */
  folder: string;
  /** How the folder is named in the line (`plugins/weather`). */
  shownAs: string;
}

function why(failure: Pick<ReloadFailure, 'stage' | 'reason' | 'location'>): string {
  const at = failure.location === undefined ? '' : ` (at ${formatLocation(failure.location)})`;
  return `${failure.stage} step: ${failure.reason}${at}`;
}

function statusLine(status: PluginStatus): string {
  if (status.state === 'loaded') return 'loaded';
  if (status.state === 'disabled') return `switched off (${status.reason ?? 'enabled = false'})`;
  return `${status.state} at the ${why({ stage: status.stage ?? 'load', reason: status.reason ?? 'no reason given', location: status.location })}`;
}

/**
 * Brings the host in line with a plugin folder after its files changed: a deleted folder's
 * plugin is removed, a loaded plugin reloads keeping its running version when the new code
 * fails (see `PluginManager.reloadKeepingPrevious`), any other folder (new, or not loaded
 * before) is loaded (`loadFolder`). Never throws: the report says what happened.
 */
export async function reloadPluginFolder(options: ReloadPluginFolderOptions): Promise<FolderReloadReport | undefined> {
  const { plugins, clock, folder, shownAs } = options;
  const started = clock.now();
  const elapsed = () => Math.round(clock.now() - started);
  const listed = plugins.list().find((status) => status.folder === folder);
  try {
    if (!existsSync(folder)) {
      if (listed?.id === undefined) return undefined;
      await plugins.removePlugin(listed.id);
      return { level: 'info', line: `${shownAs} was deleted: plugin ${listed.id} unloaded`, fields: { id: listed.id, folder: shownAs } };
    }
    if (listed?.id !== undefined && listed.state === 'loaded') {
      const outcome = await plugins.reloadKeepingPrevious(listed.id);
      const fields = { id: listed.id, folder: shownAs, ms: elapsed() };
      if (outcome.result === 'reloaded') return { level: 'info', line: `reloaded ${listed.id} (${shownAs}) in ${fields.ms} ms`, fields };
      if (outcome.result === 'kept') {
        return { level: 'error', line: `${listed.id} (${shownAs}) did not reload, the previous version keeps running: ${why(outcome.failure!)}`, fields };
      }
      const failed = outcome.failure === undefined ? '' : `its new code failed (${why(outcome.failure)}), then `;
      return { level: outcome.status.state === 'failed' ? 'error' : 'info', line: `${listed.id} (${shownAs}): ${failed}${statusLine(outcome.status)}`, fields };
    }
    const status = await plugins.loadFolder(folder);
    const fields = { id: status.id, folder: shownAs, ms: elapsed() };
    const name = pluginLabel(status);
    if (status.state === 'loaded') return { level: 'info', line: `${listed === undefined ? 'loaded new plugin' : 'loaded'} ${name} (${shownAs}) in ${fields.ms} ms`, fields };
    return { level: status.state === 'disabled' ? 'info' : 'error', line: `${name} (${shownAs}) is not loaded: ${statusLine(status)}`, fields };
  } catch (error) {
    return { level: 'error', line: `${shownAs}: reloading failed: ${error instanceof Error ? error.message : String(error)}`, fields: { folder: shownAs } };
  }
}

import { errorLocation, type SourceLocation } from '../../kernel/errors/error-location.js';
import type { PluginStatus } from '../discovery/plugin-status.js';
import { lifecycleReasonOf } from './run-lifecycle-step.js';

/** Why new code of a plugin did not take over: the step, the reason, and where in its files. */
export interface ReloadFailure {
  stage: NonNullable<PluginStatus['stage']>;
  reason: string;
  location: SourceLocation | undefined;
}

/**
 * What `PluginManager.reloadKeepingPrevious` did: `reloaded` (the new code runs), `kept`
 * (the new code failed and the previous version is still, or again, running; `failure`
 * says why), or `changed` (the plugin is now in another state: switched off, or it was not
 * running before and failed or loaded; see `status`).
 */
export interface ReloadOutcome {
  result: 'reloaded' | 'kept' | 'changed';
  status: PluginStatus;
  failure?: ReloadFailure;
}

export function reloadFailure(stage: ReloadFailure['stage'], error: unknown, folder: string): ReloadFailure {
  return { stage, reason: lifecycleReasonOf(error), location: errorLocation(error, folder) };
}

import { MoonglassError } from './moonglass-error.js';

/** A registration arrived after its plugin's scope was disposed (the plugin unloaded). */
export class ScopeInactiveError extends MoonglassError {
  /** The id of the plugin whose scope is disposed. */
  readonly scopeId: string;
  /** What tried to register (the effect's label). */
  readonly label: string;

  constructor(scopeId: string, label: string) {
    super(
      'MG_SCOPE_INACTIVE',
      `plugin scope "${scopeId}" is disposed; cannot register "${label}". ` +
        'Register from onLoad or later, and stop timers in onUnload.',
    );
    this.scopeId = scopeId;
    this.label = label;
  }
}

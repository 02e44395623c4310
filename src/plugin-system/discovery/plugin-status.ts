import type { SourceLocation } from '../../kernel/errors/error-location.js';

/** Where a discovered plugin ended up. */
export type PluginState = 'loaded' | 'disabled' | 'skipped' | 'failed';

/** One plugin folder as the host saw it: for start-up reports, the CLI and the console. */
export interface PluginStatus {
  /** The manifest id, when the manifest could be read. */
  id: string | undefined;
  /** The plugin's folder. */
  folder: string;
  /** True for a plugin shipped with moonglass (no host version check). */
  builtIn: boolean;
  /** Where it ended up: `loaded`, `disabled` (switched off in its config), `skipped` or `failed`. */
  state: PluginState;
  /** Why it is not loaded (for disabled, skipped and failed). */
  reason: string | undefined;
  /**
   * Where in the plugin's own files the error that failed it arose (a throw in `onLoad`, at
   * import, in a constructor; a TypeScript syntax error), when its stack points there.
   */
  location: SourceLocation | undefined;
  /** Which step refused it. */
  stage: 'location' | 'manifest' | 'type' | 'duplicate' | 'version' | 'dependencies' | 'switch' | 'entry' | 'config' | 'register' | 'load' | 'runtime' | undefined;
  /** The manifest's display name, when the manifest could be read. */
  name: string | undefined;
  /** The manifest's version, when the manifest could be read. */
  version: string | undefined;
  /** Loaded in compatibility mode (patch above max_version, or force_compatibility). */
  compatibilityMode: boolean;
  /** Signatures of its registered tools and components. */
  signatures: string[];
}

export function newStatus(folder: string, builtIn: boolean): PluginStatus {
  return {
    id: undefined,
    folder,
    builtIn,
    state: 'skipped',
    reason: undefined,
    location: undefined,
    stage: undefined,
    name: undefined,
    version: undefined,
    compatibilityMode: false,
    signatures: [],
  };
}

import type { NeoChatterConfigValues } from './config.js';
import type { NdfcState } from './ndfc-state.js';

/** What NDFC's components need of their plugin (kept apart from plugin.ts to avoid an import cycle). */
export interface NdfcPluginLike {
  readonly id: string;
  readonly config: NeoChatterConfigValues;
  readonly state: NdfcState;
}

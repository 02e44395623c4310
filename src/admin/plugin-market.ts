/** A plugin package found in the registry, as the console's market page shows it. */
export interface PluginMarketResult {
  name: string;
  /** The latest version the registry offers. */
  version: string;
  description: string;
  /** One line, e.g. "compatible (host_application 0.1.0..0.x)" or "unknown until installed". */
  compatibility: string;
  /** Whether its host range includes this host; undefined while the registry does not say. */
  compatible: boolean | undefined;
  /** The version installed in the bot project, when it is installed. */
  installedVersion?: string;
  /** The plugin the installed package holds, and its state in the running host. */
  plugin?: { id: string; state: string };
}

/** What a search of the registry found, or why it could not search. */
export interface PluginMarketSearch {
  /** False when the registry cannot be reached (no network, a wrong address): `problem` says why. */
  reachable: boolean;
  /** The registry asked (its URL, or how npm names it). */
  registry: string;
  problem?: string;
  results: PluginMarketResult[];
}

/** How a change of the project's plugin packages ended: `summary` is one line. */
export interface PluginMarketOutcome {
  ok: boolean;
  summary: string;
}

/** Receives the human-readable lines of a change as it goes ("installing x@1.2.0", …). */
export type MarketProgress = (line: string) => void;

/**
 * The plugin market of a running host (the app builds it; admin never imports app): searches
 * the npm registry for plugin packages and installs, updates or removes them in the bot
 * project, loading or unloading the plugin in the running host. The console runs one change
 * at a time; an operation never throws for an npm or plugin failure (`ok: false` says why).
 */
export interface PluginMarket {
  search(words: readonly string[]): Promise<PluginMarketSearch>;
  install(name: string, progress: MarketProgress): Promise<PluginMarketOutcome>;
  update(name: string, progress: MarketProgress): Promise<PluginMarketOutcome>;
  remove(name: string, progress: MarketProgress): Promise<PluginMarketOutcome>;
}

export const MARKET_ACTIONS = ['install', 'update', 'remove'] as const;
export type MarketAction = (typeof MARKET_ACTIONS)[number];

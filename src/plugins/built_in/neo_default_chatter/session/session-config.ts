import { NeoChatterConfig as NeoChatterConfigModel, type NeoChatterConfigValues } from '../config.js';

/**
 * The NeoChatterConfig a session runs with and payloads carry (`config`): the `[plugin]`
 * values of NDFC's config.toml. The seed's Python reads them as `config.plugin.enable_cooldown`;
 * here `config.enable_cooldown` and `config.plugin.enable_cooldown` are the same value
 * (`plugin` is the object itself, not enumerable, so copies and JSON do not repeat it).
 */
export type NeoChatterConfig = NeoChatterConfigValues & {
  /** The same object again, for the seed's `config.plugin.<field>` spelling (not enumerable). */
  readonly plugin: NeoChatterConfigValues;
};

/** Where a third party's session reads its values: a plugin, through its `config`. */
export interface SessionConfigSource {
  /**
   * The plugin's parsed config; each NeoChatterConfig field it defines with a valid value
   * overrides NDFC's own. Anything that is not an object counts as none.
   */
  readonly config: unknown;
}

/**
 * `config` with its `[plugin]` section alias (`config.plugin === config`). Adds it in place,
 * so an object handed on keeps its identity; a frozen object is copied instead.
 */
export function withPluginSection(config: NeoChatterConfigValues): NeoChatterConfig {
  if ('plugin' in config) return config as NeoChatterConfig;
  const target = Object.isExtensible(config) ? config : { ...config };
  Object.defineProperty(target, 'plugin', { value: target, enumerable: false });
  return target as NeoChatterConfig;
}

const FIELDS = NeoChatterConfigModel.shape;

/**
 * The config of a session created for `source` (`createSession({ plugin })`): each
 * NeoChatterConfig field the plugin's config defines with a valid value, NDFC's own value for
 * every other field. Fields the plugin's config has beyond NeoChatterConfig are not read, so
 * none of them reaches a payload. Without a source, a copy of NDFC's values.
 */
export function resolveSessionConfig(ndfc: NeoChatterConfigValues, source?: SessionConfigSource): NeoChatterConfig {
  const values: Record<string, unknown> = { ...ndfc };
  const own = source?.config;
  if (typeof own === 'object' && own !== null) {
    for (const [field, schema] of Object.entries(FIELDS)) {
      const value = (own as Record<string, unknown>)[field];
      if (value === undefined) continue;
      const parsed = schema.safeParse(value);
      if (parsed.success) values[field] = parsed.data;
    }
  }
  return withPluginSection(values as NeoChatterConfigValues);
}

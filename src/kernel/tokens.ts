/**
 * Container tokens for what the host provides. Inject with `@inject(TOKENS.X)`; override in a
 * test or a plugin with `registry.override(TOKENS.X, ...)`.
 */
export const TOKENS = {
  /** The `Logger`; inside a plugin's component, that plugin's child logger. */
  Logger: Symbol.for('moonglass.Logger'),
  /** The host's `EventBus`. */
  EventBus: Symbol.for('moonglass.EventBus'),
  /** The `Clock` every wait, delay and timeout reads. */
  Clock: Symbol.for('moonglass.Clock'),
  /** The `Random` source every probability gate reads. */
  Random: Symbol.for('moonglass.Random'),
  /** Inside a plugin's component: the plugin instance that owns it. */
  Plugin: Symbol.for('moonglass.Plugin'),
  /** The validated app configuration (`config/features.toml`). */
  Config: Symbol.for('moonglass.Config'),
  /** The `ComponentRegistry`. */
  Registry: Symbol.for('moonglass.Registry'),
  /** Host facts: version, config and data folders. */
  HostInfo: Symbol.for('moonglass.HostInfo'),
  /** The chat services chatters and actions use (`ChatRuntime`): streams, models, prompts, tools. */
  ChatRuntime: Symbol.for('moonglass.ChatRuntime'),
} as const;

export type CoreToken = (typeof TOKENS)[keyof typeof TOKENS];

/** Tokens whose value depends on which plugin's component asks for it. */
export const PLUGIN_SCOPED_TOKENS: ReadonlySet<symbol> = new Set([TOKENS.Plugin, TOKENS.Logger]);

/**
 * Container tokens for what the host provides. Inject with `@inject(TOKENS.X)`; override in a
 * plugin with `ctx.override(TOKENS.X, ...)` (a test: `host.registry.override`). The host
 * itself reads each one through the container (`followCore`), so an override changes what
 * the whole host does, and undoing it restores the default. The README's token table says
 * what overriding each one changes.
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
  /**
   * The `ModelClient` every model call goes through (`LLMRequest.send`, media descriptions).
   * `call.provider` names the provider in models.toml (`offline` for the demo model); the
   * default sends it to that provider's client.
   */
  ModelClient: Symbol.for('moonglass.ModelClient'),
  /** The `LlmService` that builds requests for tasks (`ChatRuntime.llm`). */
  Llm: Symbol.for('moonglass.Llm'),
  /** The `Database`: the repositories the host stores messages, streams, the outbox and logs in. */
  Storage: Symbol.for('moonglass.Storage'),
  /** The `StreamApi` chatters and plugins read and send through (`ChatRuntime.streams`). */
  Streams: Symbol.for('moonglass.Streams'),
  /** The `OutboundSink` every delivery goes out through (by default: the connected adapter). */
  Egress: Symbol.for('moonglass.Egress'),
  /** The `MediaService` that describes images and videos. */
  Media: Symbol.for('moonglass.Media'),
  /** The `McpHostService`: the MCP servers of config/mcp.toml. */
  Mcp: Symbol.for('moonglass.Mcp'),
  /** The `PromptManager` (`ChatRuntime.prompts`). */
  Prompts: Symbol.for('moonglass.Prompts'),
  /** The `ToolRegistry` plugins' tools are registered in and called through (`ChatRuntime.tools`). */
  Tools: Symbol.for('moonglass.Tools'),
} as const;

/** Any one of the {@link TOKENS} symbols. */
export type CoreToken = (typeof TOKENS)[keyof typeof TOKENS];

/** Tokens whose value depends on which plugin's component asks for it. */
export const PLUGIN_SCOPED_TOKENS: ReadonlySet<symbol> = new Set([TOKENS.Plugin, TOKENS.Logger]);

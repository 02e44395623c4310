import 'reflect-metadata';
import { resolve } from 'node:path';
import { Container } from 'inversify';
import { type AppConfig, type AppConfigInput, AppConfigSchema } from '../kernel/config/app-config.js';
import { loadAppConfig } from '../kernel/config/load-app-config.js';
import type { EventName, EventParams } from '../kernel/event-bus/event-payloads.js';
import { EventBus, type PublishResult } from '../kernel/event-bus/event-bus.js';
import { createLogger, pluginLogger } from '../kernel/logger/create-logger.js';
import type { Logger, LogLevel } from '../kernel/logger/logger.js';
import { ComponentRegistry } from '../kernel/registry/component-registry.js';
import type { ServiceTypes } from '../kernel/registry/service-types.js';
import { type HostRuntime, setHostRunning } from '../kernel/runtime/host-runtime.js';
import { PluginScope } from '../kernel/scope/plugin-scope.js';
import { type Clock, systemClock } from '../kernel/time/clock.js';
import { type Random, systemRandom } from '../kernel/time/random.js';
import { TOKENS } from '../kernel/tokens.js';
import { follow, followCore } from '../kernel/registry/follow-core.js';
import { followingClock } from '../kernel/time/following-clock.js';
import type { StreamApi } from '../chat/stream-api.js';
import { HostStateError } from '../kernel/errors/host-state-error.js';
import { describeError } from '../kernel/errors/describe-error.js';
import { PluginManager } from '../plugin-system/plugin-manager.js';
import { createPluginSchedules } from '../plugin-system/schedule/plugin-schedules.js';
import type { PluginRoot } from '../plugin-system/discovery/plugin-root.js';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { defaultAccountOf, personaFor } from '../chat/bot-accounts.js';
import { BOT_CONFIG_FILE_NAME, BOT_CONFIG_HEADER, type BotConfig, type BotConfigInput, BotConfigSchema } from '../chat/bot-config.js';
import type { InboundEnvelope } from '../chat/inbound-envelope.js';
import { Ingress, type IngressOutcome } from '../chat/ingress.js';
import type { OutboundSink } from '../chat/outbound-sink.js';
import { StreamManager } from '../chat/stream-manager.js';
import type { ChatRuntime } from '../chatter/chat-runtime.js';
import { ChatLoop } from '../chatter/chat-loop.js';
import { followChatters } from '../chatter/follow-chatters.js';
import { runToolCalls } from '../chatter/run-tool-calls.js';
import { collectUsables } from '../chatter/usables.js';
import type { StreamTiming } from '../chatter/stream-timing.js';
import { loadConfigFile } from '../kernel/config/load-config-file.js';
import { LlmService } from '../llm/llm-service.js';
import { loadModelsConfig } from '../llm/load-models-config.js';
import type { ModelClient } from '../llm/model-client.js';
import { type ModelsConfig, ModelsConfigSchema } from '../llm/models-config.js';
import { PromptManager } from '../llm/prompt-manager.js';
import type { Database } from '../storage/database.js';
import { openDatabase } from '../storage/open-database.js';
import { join } from 'node:path';
import { HOST_VERSION } from './host-version.js';
import type { Message } from '../chat/message.js';
import { McpConfigSchema } from '../mcp/mcp-config.js';
import { loadMcpConfig } from '../mcp/load-mcp-config.js';
import { createMcpService } from '../mcp/create-mcp-service.js';
import type { McpHostService } from '../mcp/mcp-host-service.js';
import type { PluginMcpAccess } from '../mcp/mcp-types.js';
import { MediaService } from '../media/media-service.js';
import { createPluginMediaAccess } from '../media/plugin-media-access.js';
import { describeInboundMedia, hasInboundMedia } from './inbound-media.js';
import { recordModelCalls } from './record-model-calls.js';
import { limitsOf, wireLimits } from './wire-limits.js';
import { startIdleEviction } from './evict-idle-streams.js';
import { startRetention } from '../storage/start-retention.js';
import { BUILT_IN_PLUGINS_ENV, defaultPluginRoots } from './default-plugin-roots.js';
import { UndeliveredSink } from './undelivered-sink.js';
import { InboundGates } from '../chat/inbound-gates.js';
import { wireCommands } from './wire-commands.js';
import { ChatMutes } from '../chat/silence/chat-mutes.js';
import { silenceOf } from '../chat/silence/silence-of.js';
import { ruleTargetOfRecord, ruleTargetOfStream } from '../chat/rules/rule-targets.js';
import { ChatRules } from '../chat/rules/chat-rules.js';
import { personaWithRule } from '../chat/rules/persona-with-rule.js';
import { ruleSwitchesOff } from '../chat/rules/rule-switches-off.js';
import type { CommandAccount } from '../commands/command-context.js';

/** How {@link createHost} builds a host; every field optional. */
export interface HostOptions {
  /** Where `features.toml` and the other config files live. Default `./config`. */
  configDir?: string;
  /** Where the database and plugin data live. Default `./data`. */
  dataDir?: string;
  /** Use these settings instead of reading `features.toml` (tests, embedding); nested fields may be left out. */
  appConfig?: AppConfigInput;
  /** Use this instead of reading `bot.toml`. */
  botConfig?: BotConfigInput;
  /** Use this instead of reading `models.toml`. */
  modelsConfig?: Partial<ModelsConfig>;
  /** Use this instead of reading `mcp.toml` (default with `appConfig` given: no MCP servers). */
  mcpConfig?: unknown;
  /**
   * Downloads of images and videos to describe go through it (tests point it at loopback
   * servers). It is called once per redirect hop with `redirect: 'manual'`; each URL is
   * checked before, but the connection is not pinned to the checked address as the
   * built-in client does (DNS rebinding is not covered on this path).
   */
  mediaFetch?: typeof fetch;
  /** The model used when no provider is configured (default: the offline demo model). */
  offlineModel?: ModelClient;
  /**
   * `file` (default): `<dataDir>/moonglass.db`. `memory`: a SQLite database that lives and dies
   * with the host, for tests and examples that should leave nothing behind.
   */
  database?: 'file' | 'memory';
  /** Overrides of the stream loop's timing (tests). */
  streamTiming?: Partial<StreamTiming>;
  /**
   * Folders scanned for plugins, in order. Default: the built-in plugins shipped with
   * moonglass, then `./plugins`. `[]` starts a host without plugins.
   */
  pluginRoots?: readonly PluginRoot[];
  /** The logger the host and its plugins log to. Default: a pino logger at `logLevel` on stdout. */
  logger?: Logger;
  /** The level of the default logger; ignored when `logger` is given. Default `info`. */
  logLevel?: LogLevel;
  /** The clock bound as `TOKENS.Clock` (a `ManualClock` in tests). Default: the system clock. */
  clock?: Clock;
  /**
   * The random source bound as `TOKENS.Random` (a `SeededRandom` or `SequenceRandom` in tests).
   * Default: `Math.random`.
   */
  random?: Random;
}

/** Facts about the running host, bound as `TOKENS.HostInfo`. */
export interface HostInfo {
  /** The moonglass version the host runs. */
  version: string;
  /** The absolute config folder (`HostOptions.configDir`, default `./config`). */
  configDir: string;
  /** The absolute data folder (`HostOptions.dataDir`, default `./data`). */
  dataDir: string;
}

/** A host's lifecycle state; a host starts once and is not restarted. */
export type HostState = 'created' | 'starting' | 'running' | 'stopping' | 'stopped';

/**
 * One bot host: the container, the registry, the bus and the core services. While it runs
 * (and no other host does), the module-level API (`getService`, `publishEvent`) reaches it.
 */
export class Host implements HostRuntime {
  /** The inversify container every component is built from; prefer `registry` and `getService`. */
  readonly container: Container;
  /** Every registered component and core binding; tests override bindings here. */
  readonly registry: ComponentRegistry;
  /** The host's event bus. */
  readonly bus: EventBus;
  /** The host's logger (`HostOptions.logger`, or the default one). */
  readonly logger: Logger;
  /** The clock the host reads, following the current `TOKENS.Clock` binding (so an override takes effect). */
  readonly clock: Clock;
  /** The random source the host reads, following the current `TOKENS.Random` binding. */
  readonly random: Random;
  /** Version and folders, also bound as `TOKENS.HostInfo`. */
  readonly info: HostInfo;
  /**
   * The bot's accounts on the platform (`/status`), set by whoever runs the adapter (run-bot
   * does, from its supervisor). Undefined: this host runs no adapter.
   */
  accountsSource: (() => readonly CommandAccount[]) | undefined = undefined;
  readonly #options: HostOptions;
  readonly #scopes: PluginScope[] = [];
  #config: AppConfig | undefined;
  /** The tools, media and MCP below follow their core token's binding (`followCore`). */
  #tools: ToolRegistry | undefined;
  #mcp: McpHostService | undefined;
  /** The host's own MCP service, which it starts and stops whatever `TOKENS.Mcp` is bound to. */
  #ownMcp: McpHostService | undefined;
  #stopRecordingModelCalls: (() => void)[] = [];
  #media: MediaService | undefined;
  #plugins: PluginManager | undefined;
  #chat: ChatParts | undefined;
  #sink: OutboundSink = new UndeliveredSink();
  #unsubscribeSink: (() => void) | undefined;
  #stopEviction: (() => void) | undefined;
  #stopRetention: (() => void) | undefined;
  #stopFollowingChatters: (() => void) | undefined;
  #startSettled: Promise<void> = Promise.resolve();
  #state: HostState = 'created';

  constructor(options: HostOptions = {}) {
    this.#options = options;
    this.logger = options.logger ?? createLogger({ level: options.logLevel ?? 'info' });
    // The host's parts read the clock and the random source through their core tokens, so
    // an override of TOKENS.Clock drives every wait, delay and timeout (see DESIGN.md).
    const current = <T>(token: symbol): T => this.registry.core<T>(token);
    this.clock = followingClock(() => current<Clock>(TOKENS.Clock));
    this.random = { next: () => current<Random>(TOKENS.Random).next() };
    this.info = {
      version: HOST_VERSION,
      configDir: resolve(options.configDir ?? 'config'),
      dataDir: resolve(options.dataDir ?? 'data'),
    };
    this.container = new Container();
    this.bus = new EventBus({ clock: this.clock, logger: this.logger });
    this.registry = new ComponentRegistry({ container: this.container, bus: this.bus, logger: this.logger });
    this.registry.bindCore(TOKENS.EventBus, this.bus);
    this.registry.bindCore(TOKENS.Clock, options.clock ?? systemClock);
    this.registry.bindCore(TOKENS.Random, options.random ?? systemRandom);
    this.registry.bindCore(TOKENS.Registry, this.registry);
    this.registry.bindCore(TOKENS.HostInfo, this.info);
  }

  /**
   * Where the host is in its lifecycle: `created` until `start()`, then `starting`, `running`,
   * `stopping`, `stopped`.
   */
  get state(): HostState {
    return this.#state;
  }

  /** `value` once `start()` has made it; before, a HostStateError saying what to await. */
  #started<T>(value: T | undefined, what: string, detail: string): T {
    if (value === undefined) throw new HostStateError(what, this.#state, detail);
    return value;
  }

  /** The validated app settings; available once `start()` has read them. */
  get config(): AppConfig {
    return this.#started(this.#config, 'reading config', 'the settings are read by start(); await it first');
  }

  /** The tools plugins registered; available once `start()` has read the settings. */
  get tools(): ToolRegistry {
    return this.#started(this.#tools, 'reading tools', 'tools are set up by start(); await it first');
  }

  /** The chat services (streams, models, prompts ...); available once `start()` has run. */
  get chat(): ChatParts {
    return this.#started(this.#chat, 'reading chat', 'the chat runtime is built by start(); await it first');
  }

  /** The sink messages go to now (to wrap it, e.g. the console's sandbox). */
  get outboundSink(): OutboundSink {
    return this.#sink;
  }

  /**
   * Where sent messages go: the adapter's sink. Until one is set, replies wait in the
   * outbox (up to `send_deadline_seconds`); setting one sends them.
   */
  setOutboundSink(sink: OutboundSink): void {
    this.#unsubscribeSink?.();
    this.#sink = sink;
    const wake = (): void => this.#chat?.streams.outbox.wake();
    this.#unsubscribeSink = sink.onConnectionChange?.((connected) => {
      if (connected) wake();
    });
    wake();
  }

  /** An adapter's inbound message: stored, then delivered to its stream (see Ingress). */
  receive(envelope: InboundEnvelope, adapterSignature = 'unknown'): Promise<IngressOutcome> {
    return this.chat.ingress.receive(envelope, adapterSignature);
  }

  /** The MCP connections (`config/mcp.toml`); available once `start()` has read the settings. */
  get mcp(): McpHostService {
    return this.#started(this.#mcp, 'reading mcp', 'MCP is set up by start(); await it first');
  }

  /** The image and video description service; available once `start()` has read the settings. */
  get media(): MediaService {
    return this.#started(this.#media, 'reading media', 'media is set up by start(); await it first');
  }

  /** The plugin manager; available once `start()` has read the settings. */
  get plugins(): PluginManager {
    return this.#started(this.#plugins, 'reading plugins', 'plugins are loaded by start(); await it first');
  }

  /**
   * Reads the settings, applies them, loads the plugins, marks the host running and
   * publishes `on_start`.
   */
  start(): Promise<void> {
    if (this.#state !== 'created') return Promise.reject(new HostStateError('start()', this.#state, 'a host starts once; create a new one to start again'));
    const starting = this.#start();
    this.#startSettled = starting.then(
      () => undefined,
      () => undefined,
    );
    return starting;
  }

  async #start(): Promise<void> {
    this.#state = 'starting';
    try {
      const config =
        this.#options.appConfig !== undefined
          ? AppConfigSchema.parse(this.#options.appConfig)
          : loadAppConfig(this.info.configDir, this.logger);
      this.#config = config;
      this.registry.bindCore(TOKENS.Config, config);
      this.bus.setDefaultTimeout(config.advanced.event_handler_timeout);
      const reversible = new Set(config.tools.reversible_enabled);
      this.registry.bindCore(
        TOKENS.Tools,
        new ToolRegistry({
          clock: this.clock,
          logger: this.logger,
          observationMaxChars: config.tools.observation_max_chars,
          isReversibleEnabled: (name) => reversible.has(name),
        }),
      );
      this.#tools = followCore<ToolRegistry>(this.registry, TOKENS.Tools);
      this.#chat = this.#buildChat();
      wireCommands(this);
      const chat = this.#chat;
      wireLimits(this); // rate limits and daily token budgets (issue 18 item 4)
      const bot = chat.bot.bot;
      const stored = <T extends object>(pick: (database: Database) => T): T => followCore(this.registry, TOKENS.Storage, pick);
      this.registry.bindCore(
        TOKENS.Media,
        new MediaService({
          config: config.media,
          llm: chat.runtime.llm,
          clock: this.clock,
          logger: this.logger,
          cache: stored((database) => database.mediaCache),
          bot: { nickname: bot.nickname, aliases: bot.aliases },
          botNamesFor: (streamId) => chat.runtime.personaOf(streamId),
          ...(this.#options.mediaFetch === undefined ? {} : { fetch: this.#options.mediaFetch }),
        }),
      );
      this.#media = followCore<MediaService>(this.registry, TOKENS.Media);
      this.#stopRecordingModelCalls = recordModelCalls({ bus: this.bus, log: stored((database) => database.modelCalls), clock: this.clock, logger: this.logger });
      const mcpConfig =
        this.#options.mcpConfig !== undefined || this.#options.appConfig !== undefined
          ? McpConfigSchema.parse(this.#options.mcpConfig ?? {})
          : loadMcpConfig(this.info.configDir, this.logger);
      this.#ownMcp = await createMcpService({
        config: mcpConfig,
        clock: this.clock,
        logger: this.logger,
        usage: stored((database) => database.mcpUsage),
        timeZone: chat.bot.bot.timezone,
        tools: this.#tools,
        forceCompatibility: config.advanced.force_compatibility,
        clientInfo: { name: 'moonglass', version: this.info.version },
      });
      this.registry.bindCore(TOKENS.Mcp, this.#ownMcp);
      this.#mcp = followCore<McpHostService>(this.registry, TOKENS.Mcp);
      const mcp = this.#mcp;
      const media = this.#media;
      this.#plugins = new PluginManager({
        roots: this.#options.pluginRoots ?? defaultPluginRoots(),
        registry: this.registry,
        bus: this.bus,
        tools: this.#tools,
        logger: this.logger,
        clock: this.clock,
        host: { version: this.info.version, configDir: this.info.configDir, dataDir: this.info.dataDir },
        forceCompatibility: config.advanced.force_compatibility,
        chat: this.#chat.runtime,
        services: {
          mcp: (pluginId) => this.#mcpFor(pluginId),
          media: (pluginId) => createPluginMediaAccess(media, pluginId),
          schedule: createPluginSchedules({ clock: this.clock, store: stored((database) => database.schedules), timeZone: bot.timezone }),
        },
        createScope: (pluginId) => this.createScope(pluginId),
        lifecycleTimeoutMs: config.plugins.lifecycle_timeout_s * 1000,
      });
    } catch (error) {
      this.#state = 'stopped';
      this.#chat?.database.close(); // and its data-folder lock
      throw error;
    }
    // Plugins are part of the running host: module-level calls in onLoad reach it.
    setHostRunning(this, true);
    this.#state = 'running';
    await this.#plugins.loadAll();
    if (this.#state !== 'running') return; // stopped while plugins were loading
    // MCP servers connect in the background; their tools appear as they come up.
    this.#ownMcp!.start();
    this.#chat.loop.restore(this.#chat.storage.messages.streamsWithUnread());
    // From now on (not while plugins load): a chatter switched off and on again answers what arrived meanwhile.
    const chat = this.#chat;
    this.#stopFollowingChatters = followChatters(this.bus, chat.loop, () => chat.storage.messages.streamsWithUnread());
    this.#chat.streams.outbox.restore();
    this.#stopEviction = startIdleEviction({
      clock: this.clock,
      loop: this.#chat.loop,
      streams: this.#chat.streams,
      idleMs: this.#config.chat.idle_evict_seconds * 1000,
      logger: this.logger,
    });
    this.#stopRetention = startRetention({ database: this.#chat.database, clock: this.clock, keepDays: this.#chat.bot.storage.keep_days, logger: this.logger });
    await this.publishEvent('on_start', { started_at: this.clock.now() });
  }

  /** Publishes `on_stop`, disposes every plugin scope newest first, and detaches the host. */
  async stop(reason = 'stop()'): Promise<void> {
    // A stop asked for while the settings are read waits for that to end, then stops.
    if (this.#state === 'starting') await this.#startSettled;
    if (this.#state !== 'running') return;
    this.#state = 'stopping';
    try {
      await this.publishEvent('on_stop', { reason });
      this.#stopEviction?.();
      this.#stopRetention?.();
      this.#stopFollowingChatters?.();
      await this.#chat?.loop.stop();
      await this.#chat?.streams.outbox.close();
      this.#unsubscribeSink?.();
      await this.#plugins?.unloadAll();
      await this.#ownMcp?.stop();
      for (const unsubscribe of this.#stopRecordingModelCalls.splice(0)) unsubscribe();
    } finally {
      this.#chat?.database.close();
      while (this.#scopes.length > 0) this.#scopes.pop()!.dispose();
      setHostRunning(this, false);
      this.#state = 'stopped';
    }
  }

  #buildChat(): ChatParts {
    const options = this.#options;
    const configDir = this.info.configDir;
    const useFiles = options.appConfig === undefined;
    const bot =
      options.botConfig !== undefined || !useFiles
        ? BotConfigSchema.parse(options.botConfig ?? {})
        : loadConfigFile({ configDir, fileName: BOT_CONFIG_FILE_NAME, schema: BotConfigSchema, header: BOT_CONFIG_HEADER, logger: this.logger });
    const models =
      options.modelsConfig !== undefined || !useFiles ? ModelsConfigSchema.parse(options.modelsConfig ?? {}) : loadModelsConfig(configDir, this.logger);
    // Each service is bound under its core token, and the host's parts get a facade that
    // follows the binding (`followCore`): an override changes what the whole host does. The
    // host keeps its own defaults only to close and restore them.
    const registry = this.registry;
    const database = openDatabase({
      file: options.database === 'memory' ? ':memory:' : join(this.info.dataDir, 'moonglass.db'),
      logger: this.logger,
    });
    registry.bindCore(TOKENS.Storage, database);
    const storage = followCore<Database>(registry, TOKENS.Storage);
    const defaultLlm = new LlmService({
      config: models,
      bus: this.bus,
      clock: this.clock,
      logger: this.logger,
      client: followCore<ModelClient>(registry, TOKENS.ModelClient),
      ...(options.offlineModel === undefined ? {} : { offlineModel: options.offlineModel }),
    });
    registry.bindCore(TOKENS.ModelClient, defaultLlm.providerRouter);
    registry.bindCore(TOKENS.Llm, defaultLlm);
    const llm = followCore<LlmService>(registry, TOKENS.Llm);
    registry.bindCore(TOKENS.Prompts, new PromptManager({ bus: this.bus }));
    const prompts = followCore<PromptManager>(registry, TOKENS.Prompts);
    registry.bindCore(TOKENS.Egress, follow<OutboundSink>(() => this.#sink));
    const egress = followCore<OutboundSink>(registry, TOKENS.Egress);
    const streams = new StreamManager({
      database: storage,
      bus: this.bus,
      clock: this.clock,
      logger: this.logger,
      sink: () => egress,
      bot: { name: bot.bot.nickname, nameFor: (account) => personaFor(bot, account).nickname, accountFor: (platform) => defaultAccountOf(bot, platform) ?? 'bot' },
      sendDeadlineMs: bot.chat.send_deadline_seconds * 1000,
    });
    registry.bindCore(TOKENS.Streams, streams);
    const streamApi = followCore<StreamApi>(registry, TOKENS.Streams);
    const rules = new ChatRules({
      rules: bot.rules,
      timeZone: bot.bot.timezone,
      clock: this.clock,
      targetOf: (id) => {
        const live = streamApi.getStream(id);
        if (live !== undefined) return ruleTargetOfStream(live);
        const stored = storage.streams.get(id);
        return stored === undefined ? undefined : ruleTargetOfRecord(stored);
      },
    });
    const mutes = new ChatMutes({ repository: () => storage.chatMutes, clock: this.clock, logger: this.logger });
    const runtime: ChatRuntime = {
      streams: streamApi,
      llm,
      prompts,
      tools: this.#tools!,
      registry: this.registry,
      bus: this.bus,
      clock: this.clock,
      random: this.random,
      logger: this.logger,
      bot,
      personaOf: (streamId) => personaWithRule(personaFor(bot, streamApi.getStream(streamId)?.account ?? null), rules.ruleFor(streamId)),
      personaOfAccount: (account) => personaFor(bot, account),
      ruleFor: (streamId, atMs) => rules.ruleFor(streamId, atMs),
      silenceOf: (streamId, atMs = this.clock.now()) => silenceOf({ mutes, ruleFor: (id, at) => rules.ruleFor(id, at) }, streamId, atMs),
      // The budgets are made by wireLimits once the chat parts exist; read lazily, none before.
      budgetLeft: (taskName) => limitsOf(this)?.budgetLeft(taskName),
      capabilitiesFor: (streamId) => this.plugins.streamCapabilities(streamId),
      createRequest: (streamId, taskName, requestName = taskName) => llm.createRequest({ taskName, requestName, streamId }),
      usablesFor: async (streamId) => {
        const rule = rules.ruleFor(streamId);
        const capabilities = await this.plugins.streamCapabilities(streamId);
        return collectUsables({ registry: this.registry, tools: this.tools, streams: streamApi, capabilities, isOff: (usable) => ruleSwitchesOff(rule, usable) });
      },
      runToolCalls: async (streamId, calls, usables, signal = new AbortController().signal) =>
        runToolCalls({
          calls,
          usables,
          bus: this.bus,
          clock: this.clock,
          streamId,
          signal,
          capabilities: await this.plugins.streamCapabilities(streamId),
          onOutcome: (outcome, startedAt, durationMs) => runtime.recordToolCall(streamId, outcome, startedAt, durationMs),
        }),
      callPlatform: async (action, params = {}, account = null) => {
        const sink = egress;
        if (sink.call === undefined) throw new Error(`platform action ${action}: the connected adapter has no platform actions (or no adapter is connected)`);
        return sink.call(action, params, account);
      },
      // `loop` is built below, from this runtime; a resume comes only once the host runs.
      resume: (streamId, event) => loop.resume(streamId, event),
      recordToolCall: (streamId, outcome, startedAt, durationMs) => {
        try {
          storage.toolCalls.record({
            streamId,
            callId: outcome.call.id,
            toolName: outcome.call.name,
            arguments: outcome.call.args,
            success: outcome.result.success,
            observation: outcome.result.observation,
            errorMessage: outcome.result.errorMessage,
            startedAt,
            durationMs,
          });
        } catch (error) {
          this.logger.warn({ stream_id: streamId, error: describeError(error) }, 'could not log the tool call');
        }
      },
    };
    this.registry.bindCore(TOKENS.ChatRuntime, runtime);
    const loop = new ChatLoop({
      runtime,
      states: followCore(registry, TOKENS.Storage, (current: Database) => current.streamStates),
      reads: { hold: (id) => streams.holdReads(id), commit: (id) => streams.commitReads(id), release: (id) => streams.releaseReads(id) },
      ...(options.streamTiming === undefined ? {} : { timing: options.streamTiming }),
    });
    const gates = new InboundGates(this.logger);
    const ingress = new Ingress({
      database: storage,
      streams,
      bus: this.bus,
      clock: this.clock,
      logger: this.logger,
      maxInboundChars: this.#config!.chat.max_inbound_chars,
      gates,
      onDelivered: (message) => {
        this.#plugins?.observeInbound(message.streamId, message.messageId, message);
        if (this.#media === undefined || !hasInboundMedia(message)) {
          loop.onMessage(message);
          return;
        }
        // The stream is woken once the message's images and videos are described (each
        // description has its own deadline), so the chatter reads them, not placeholders.
        void this.#describeInboundMedia(message, this.#media).finally(() => loop.onMessage(message));
      },
    });
    return { database, storage, llm, prompts, streams, ingress, loop, runtime, bot, models, gates, mutes, rules };
  }

  /** A plugin's MCP access, made anew from whatever `TOKENS.Mcp` is bound to when that changes. */
  #mcpFor(pluginId: string): PluginMcpAccess {
    let made: { from: McpHostService; access: PluginMcpAccess } | undefined;
    return follow(() => {
      const current = this.registry.core<McpHostService>(TOKENS.Mcp);
      if (made?.from !== current) made = { from: current, access: current.forPlugin(pluginId) };
      return made.access;
    });
  }

  async #describeInboundMedia(message: Message, media: MediaService): Promise<void> {
    try {
      const text = await describeInboundMedia(message, media, this.logger);
      if (text === undefined || this.#chat?.database.isOpen !== true) return;
      this.#chat.streams.updateInboundText(message.streamId, message.messageId, text);
    } catch (error) {
      this.logger.warn({ stream_id: message.streamId, message_id: message.messageId, error: describeError(error) }, 'could not describe the media of an inbound message');
    }
  }

  /**
   * A new scope for a plugin; it is disposed when the host stops, newest first. The host
   * makes exactly one per plugin load, so a second live scope for an id is refused: a plugin
   * id (and the plugin's `TOKENS.Plugin`, logger and config) cannot be borrowed. The registry
   * refuses a hand-made `PluginScope` for a loaded plugin's id in the same way.
   */
  createScope(pluginId: string): PluginScope {
    for (let index = this.#scopes.length - 1; index >= 0; index -= 1) if (!this.#scopes[index]!.active) this.#scopes.splice(index, 1);
    if (this.#scopes.some((live) => live.id === pluginId)) {
      throw new HostStateError(`createScope("${pluginId}")`, this.#state, `plugin "${pluginId}" has a live scope already; the host creates one scope per plugin load`);
    }
    const scope = new PluginScope(pluginId, pluginLogger(this.logger, pluginId));
    this.#scopes.push(scope);
    return scope;
  }

  /**
   * This host's component bound to a known service signature (typed by `ServiceTypes`), or
   * `undefined` when nothing is bound.
   */
  getService<S extends keyof ServiceTypes>(signature: S): ServiceTypes[S] | undefined;
  /** This host's component bound to `signature`, or `undefined`; throws `SignatureError` for a malformed one. */
  getService<T = unknown>(signature: string): T | undefined;
  getService(signature: string): unknown {
    return this.registry.get(signature);
  }

  /** Publishes `eventName` on this host's bus and resolves to `{ decision, params }` (see {@link EventBus}). */
  publishEvent<E extends EventName>(eventName: E, params: EventParams<E>): Promise<PublishResult<EventParams<E>>> {
    return this.bus.publish(eventName, params);
  }

  /** Sets the default handler timeout in seconds (`<= 0`: none) for this host's handlers that declare none. */
  setEventHandlerTimeout(seconds: number): void {
    this.bus.setDefaultTimeout(seconds);
  }
}

/**
 * The host's chat parts, built at start. `database` and `streams` are the host's own (it
 * closes and restores them); `storage`, `llm` and `prompts` follow their core tokens.
 */
export interface ChatParts {
  database: Database;
  /** The storage as bound now (`TOKENS.Storage`): what the ingress and the outbox write to. */
  storage: Database;
  llm: LlmService;
  prompts: PromptManager;
  streams: StreamManager;
  ingress: Ingress;
  loop: ChatLoop;
  runtime: ChatRuntime;
  bot: BotConfig;
  models: ModelsConfig;
  /** What a delivered message passes before a chatter is woken: commands, guests, rate limits. */
  gates: InboundGates;
  /** Chats muted by an owner's `/mute` (persisted). */
  mutes: ChatMutes;
  /** `bot.toml [[rules]]` in use (`replace` puts edited ones in use without a restart). */
  rules: ChatRules;
}

export type { PluginStatus };
export { BUILT_IN_PLUGINS_ENV, defaultPluginRoots };

/** Builds a host. Nothing runs until `await host.start()`. */
export function createHost(options: HostOptions = {}): Host {
  return new Host(options);
}

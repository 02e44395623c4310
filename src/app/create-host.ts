import 'reflect-metadata';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Container } from 'inversify';
import { type AppConfig, AppConfigSchema } from '../kernel/config/app-config.js';
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
import { HostStateError } from '../kernel/errors/host-state-error.js';
import { PluginManager } from '../plugin-system/plugin-manager.js';
import type { PluginRoot } from '../plugin-system/discovery/plugin-root.js';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { HOST_VERSION } from './host-version.js';

export interface HostOptions {
  /** Where `features.toml` and the other config files live. Default `./config`. */
  configDir?: string;
  /** Where the database and plugin data live. Default `./data`. */
  dataDir?: string;
  /** Use these settings instead of reading `features.toml` (tests, embedding). */
  appConfig?: Partial<AppConfig>;
  /**
   * Folders scanned for plugins, in order. Default: the built-in plugins shipped with
   * moonglass, then `./plugins`. `[]` starts a host without plugins.
   */
  pluginRoots?: readonly PluginRoot[];
  logger?: Logger;
  logLevel?: LogLevel;
  clock?: Clock;
  random?: Random;
}

/** Facts about the running host, bound as `TOKENS.HostInfo`. */
export interface HostInfo {
  version: string;
  configDir: string;
  dataDir: string;
}

export type HostState = 'created' | 'starting' | 'running' | 'stopping' | 'stopped';

/**
 * One bot host: the container, the registry, the bus and the core services. While it runs
 * (and no other host does), the module-level API (`getService`, `publishEvent`) reaches it.
 */
export class Host implements HostRuntime {
  readonly container: Container;
  readonly registry: ComponentRegistry;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly random: Random;
  readonly info: HostInfo;
  readonly #options: HostOptions;
  readonly #scopes: PluginScope[] = [];
  #config: AppConfig | undefined;
  #tools: ToolRegistry | undefined;
  #plugins: PluginManager | undefined;
  #state: HostState = 'created';

  constructor(options: HostOptions = {}) {
    this.#options = options;
    this.logger = options.logger ?? createLogger({ level: options.logLevel ?? 'info' });
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? systemRandom;
    this.info = {
      version: HOST_VERSION,
      configDir: resolve(options.configDir ?? 'config'),
      dataDir: resolve(options.dataDir ?? 'data'),
    };
    this.container = new Container();
    this.bus = new EventBus({ clock: this.clock, logger: this.logger });
    this.registry = new ComponentRegistry({ container: this.container, bus: this.bus, logger: this.logger });
    this.registry.bindCore(TOKENS.EventBus, this.bus);
    this.registry.bindCore(TOKENS.Clock, this.clock);
    this.registry.bindCore(TOKENS.Random, this.random);
    this.registry.bindCore(TOKENS.Registry, this.registry);
    this.registry.bindCore(TOKENS.HostInfo, this.info);
  }

  get state(): HostState {
    return this.#state;
  }

  /** The validated app settings; available once `start()` has read them. */
  get config(): AppConfig {
    if (this.#config === undefined) throw new HostStateError('reading config', this.#state, 'the settings are read by start(); await it first');
    return this.#config;
  }

  /** The tools plugins registered; available once `start()` has read the settings. */
  get tools(): ToolRegistry {
    if (this.#tools === undefined) throw new HostStateError('reading tools', this.#state, 'tools are set up by start(); await it first');
    return this.#tools;
  }

  /** The plugin manager; available once `start()` has read the settings. */
  get plugins(): PluginManager {
    if (this.#plugins === undefined) throw new HostStateError('reading plugins', this.#state, 'plugins are loaded by start(); await it first');
    return this.#plugins;
  }

  /**
   * Reads the settings, applies them, loads the plugins, marks the host running and
   * publishes `on_start`.
   */
  async start(): Promise<void> {
    if (this.#state !== 'created') throw new HostStateError('start()', this.#state, 'a host starts once; create a new one to start again');
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
      this.#tools = new ToolRegistry({
        clock: this.clock,
        logger: this.logger,
        observationMaxChars: config.tools.observation_max_chars,
        isReversibleEnabled: (name) => reversible.has(name),
      });
      this.#plugins = new PluginManager({
        roots: this.#options.pluginRoots ?? defaultPluginRoots(),
        registry: this.registry,
        bus: this.bus,
        tools: this.#tools,
        logger: this.logger,
        clock: this.clock,
        host: { version: this.info.version, configDir: this.info.configDir, dataDir: this.info.dataDir },
        forceCompatibility: config.advanced.force_compatibility,
        createScope: (pluginId) => this.createScope(pluginId),
      });
    } catch (error) {
      this.#state = 'stopped';
      throw error;
    }
    // Plugins are part of the running host: module-level calls in onLoad reach it.
    setHostRunning(this, true);
    this.#state = 'running';
    await this.#plugins.loadAll();
    await this.publishEvent('on_start', { started_at: this.clock.now() });
  }

  /** Publishes `on_stop`, disposes every plugin scope newest first, and detaches the host. */
  async stop(reason = 'stop()'): Promise<void> {
    if (this.#state !== 'running') return;
    this.#state = 'stopping';
    try {
      await this.publishEvent('on_stop', { reason });
      await this.#plugins?.unloadAll();
    } finally {
      while (this.#scopes.length > 0) this.#scopes.pop()!.dispose();
      setHostRunning(this, false);
      this.#state = 'stopped';
    }
  }

  /** A new scope for a plugin; it is disposed when the host stops, newest first. */
  createScope(pluginId: string): PluginScope {
    const scope = new PluginScope(pluginId, pluginLogger(this.logger, pluginId));
    this.#scopes.push(scope);
    return scope;
  }

  getService<S extends keyof ServiceTypes>(signature: S): ServiceTypes[S] | undefined;
  getService<T = unknown>(signature: string): T | undefined;
  getService(signature: string): unknown {
    return this.registry.get(signature);
  }

  publishEvent<E extends EventName>(eventName: E, params: EventParams<E>): Promise<PublishResult<EventParams<E>>> {
    return this.bus.publish(eventName, params);
  }

  setEventHandlerTimeout(seconds: number): void {
    this.bus.setDefaultTimeout(seconds);
  }
}

/** The standard roots: moonglass's built-in plugins, then `./plugins` under the working folder. */
export function defaultPluginRoots(): PluginRoot[] {
  return [
    { path: fileURLToPath(new URL('../plugins/built_in/', import.meta.url)), builtIn: true },
    { path: resolve('plugins'), builtIn: false },
  ];
}

export type { PluginStatus };

/** Builds a host. Nothing runs until `await host.start()`. */
export function createHost(options: HostOptions = {}): Host {
  return new Host(options);
}

import type { EventBus } from '../kernel/event-bus/event-bus.js';
import { errorLocation, formatLocation } from '../kernel/errors/error-location.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { ComponentRegistry } from '../kernel/registry/component-registry.js';
import type { PluginScope } from '../kernel/scope/plugin-scope.js';
import type { Clock } from '../kernel/time/clock.js';
import { withTimeout } from '../kernel/time/with-timeout.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ChatRuntime } from '../chatter/chat-runtime.js';
import { type DiscoveredPlugin, discoverPlugins } from './discovery/discover-plugins.js';
import { join, resolve } from 'node:path';
import type { PluginRoot } from './discovery/plugin-root.js';
import type { PluginStatus } from './discovery/plugin-status.js';
import { importPluginEntry, type PluginClass } from './loader/import-plugin-entry.js';
import type { EntryImportOptions } from './loader/typescript-loader.js';
import type { PluginHostFacts, PluginServiceFactories } from './plugin-context.js';
import { type LifecycleStep, lifecycleReasonOf, runLifecycleStep } from './lifecycle/run-lifecycle-step.js';
import type { ToolPlugin } from './tool-plugin.js';
import { readPluginManifest } from './manifest/read-plugin-manifest.js';
import type { PluginManifest } from './manifest/plugin-manifest.js';
import { orderByDependencies } from './discovery/order-by-dependencies.js';
import { blockedByDependency } from './discovery/blocked-by-dependency.js';
import { dependentsToFollow } from './discovery/dependents-to-follow.js';
import { reloadRefusal } from './lifecycle/reload-refusal.js';
import { InvalidArgumentError } from '../kernel/errors/invalid-argument-error.js';
import { type LoadedPlugin, preparePlugin, readPluginSettings } from './loader/prepare-plugin.js';
import { type ReloadFailure, type ReloadOutcome, reloadFailure } from './lifecycle/reload-outcome.js';
import { type Settled, settle } from './loader/settle.js';
import { type PluginConfigView, readPluginConfigView } from './config/read-plugin-config-view.js';
import { pluginConfigFile } from './config/plugin-config-file.js';
import { configFileLabel, discoverFolder } from './discovery/discover-plugins.js';
import { rootHoldingFolder } from './lifecycle/root-holding-folder.js';

export interface PluginManagerOptions {
  roots: readonly PluginRoot[];
  registry: ComponentRegistry;
  bus: EventBus;
  tools: ToolRegistry;
  logger: Logger;
  clock: Clock;
  host: PluginHostFacts;
  forceCompatibility: boolean;
  /** The chat services handed to plugins as `ctx.chat`. */
  chat?: ChatRuntime;
  /** `ctx.mcp` and `ctx.media` per plugin; without them, calling either throws a clear error. */
  services?: PluginServiceFactories;
  /** A new scope for a plugin (the host also disposes leftovers when it stops). */
  createScope(pluginId: string): PluginScope;
  /** Longest a `streamCapabilities` call may take before it counts as a failure. Default 2000 ms. */
  capabilityTimeoutMs?: number;
  /**
   * Longest a plugin's `onLoad` or `onUnload` may take (each, also within `reload`); past it
   * the plugin is reported failed with the step and the host goes on. Default 30 000 ms
   * (`features.toml [plugins] lifecycle_timeout_s`).
   */
  lifecycleTimeoutMs?: number;
}

/** The lifecycle methods the host awaits with `lifecycleTimeoutMs`. */

// One notice per process for plugins loaded in compatibility mode, whatever the number of hosts.
const compatibilityNotices = new Set<string>();

/**
 * Finds, loads and unloads the plugins of the roots. Every step is isolated per plugin: a
 * broken manifest, entry, config, registration, `onLoad`, `observeInbound` or
 * `streamCapabilities` is logged with the plugin's id and removes that plugin only.
 */
export class PluginManager {
  readonly #options: PluginManagerOptions;
  readonly #logger: Logger;
  /** A compiled host caches its TypeScript plugins' compiled entries in `<data>/cache/plugins`. */
  readonly #entryImport: EntryImportOptions;
  #statuses: PluginStatus[] = [];
  #loaded: LoadedPlugin[] = [];
  /** Every plugin with a usable manifest, switched off ones included, by id: the dependency graph. */
  #discovered = new Map<string, DiscoveredPlugin>();
  /** Aborted by `unloadAll()` while `loadAll()` runs: a pending `onLoad` is then abandoned. */
  #loading: { stop: AbortController; done: Promise<unknown> } | undefined;

  constructor(options: PluginManagerOptions) {
    this.#options = options;
    this.#logger = options.logger;
    this.#entryImport = { logger: options.logger, compileCacheRoot: join(options.host.dataDir, 'cache', 'plugins') };
  }

  /** Every plugin folder seen and what became of it, in scan order. */
  list(): readonly PluginStatus[] {
    return this.#statuses;
  }

  /** The loaded plugin instances, in load order. */
  plugins(): ToolPlugin<unknown>[] {
    return this.#loaded.map((loaded) => loaded.plugin);
  }

  /** The loaded plugin with this id. */
  get(id: string): ToolPlugin<unknown> | undefined {
    return this.#loaded.find((loaded) => loaded.plugin.id === id)?.plugin;
  }

  /**
   * Discovers and loads every plugin; resolves when all `onLoad`s have run (or timed out).
   * An `unloadAll()` meanwhile ends it early: the pending `onLoad` is abandoned and the
   * plugins after it are not loaded.
   */
  async loadAll(): Promise<readonly PluginStatus[]> {
    const stop = new AbortController();
    const done = this.#loadAll(stop.signal);
    this.#loading = { stop, done };
    try {
      return await done;
    } finally {
      if (this.#loading?.done === done) this.#loading = undefined;
    }
  }

  async #loadAll(stopped: AbortSignal): Promise<readonly PluginStatus[]> {
    const options = this.#options;
    const { plugins: discovered, statuses } = discoverPlugins({
      roots: options.roots,
      hostVersion: options.host.version,
      forceCompatibility: options.forceCompatibility,
      logger: this.#logger,
      configDir: options.host.configDir,
      compatibilityNotices,
    });
    this.#statuses = statuses;
    // Switched off in phase one, a plugin is still in the graph: its dependents are skipped for that reason.
    const switchedOff = statuses.filter((status) => status.state === 'disabled').flatMap((status) => {
      try {
        return [this.#entryOf(status)];
      } catch {
        return []; // its manifest changed since discovery: it is not in the graph
      }
    });
    this.#discovered = new Map([...discovered, ...switchedOff].map((plugin) => [plugin.manifest.id, plugin]));
    // Dependencies load first; what the manifests and the switches already rule out is skipped before its code runs.
    const { ordered, problems } = orderByDependencies([...this.#discovered.values()]);
    const tried = new Set<string>();
    const plugins = ordered.filter((plugin) => {
      if (plugin.status.state === 'disabled') return false;
      const problem = problems.get(plugin.manifest.id) ?? this.#blockedBy(plugin.manifest, (id) => tried.has(id));
      if (problem === undefined) return tried.add(plugin.manifest.id);
      this.#skip(plugin.status, problem);
      return false;
    });

    // Entry files are imported concurrently (compiling them dominates a cold start, and the
    // TypeScript loader works while the main thread waits), then handled one by one in scan
    // order. Tools and components of every plugin are registered before any onLoad runs.
    const imports = plugins.map((discovered) => settle(importPluginEntry(discovered.folder, this.#entryImport)));
    const prepared: LoadedPlugin[] = [];
    for (const [index, plugin] of plugins.entries()) {
      const blocked = this.#blockedBy(plugin.manifest, (id) => prepared.some((entry) => entry.plugin.id === id));
      if (blocked !== undefined) {
        this.#skip(plugin.status, blocked);
        continue;
      }
      const loaded = this.#prepare(plugin, await imports[index]!);
      if (loaded !== undefined) prepared.push(loaded);
    }
    for (const loaded of prepared) {
      const blocked = this.#blockedBy(loaded.plugin.manifest, (id) => this.#loaded.some((entry) => entry.plugin.id === id));
      if (blocked !== undefined) {
        loaded.scope.dispose();
        loaded.status.signatures = [];
        this.#skip(loaded.status, blocked);
        continue;
      }
      if (stopped.aborted) {
        loaded.scope.dispose();
        Object.assign(loaded.status, { state: 'skipped', stage: 'load', reason: 'the host stopped before its onLoad ran', signatures: [] });
        continue;
      }
      try {
        await this.#runStep(loaded, 'onLoad', stopped);
      } catch (error) {
        this.#fail(loaded.status, 'load', error, '工具插件加载失败，已从注册表移除');
        loaded.scope.dispose();
        continue;
      }
      loaded.status.state = 'loaded';
      this.#loaded.push(loaded);
      const { manifest } = loaded.plugin;
      this.#logger.info({ id: manifest.id, name: manifest.name, version: manifest.version }, '工具插件已加载');
      await this.#publishLoaded(loaded.status);
    }
    if (!stopped.aborted) await options.bus.publish('on_all_plugin_loaded', { plugins: this.#loaded.map((loaded) => loaded.plugin.id) });
    return this.#statuses;
  }

  /**
   * A discovered plugin's folder, config file (see `pluginConfigFile`), config model and
   * current settings (the loaded plugin's, or read from its config file when it is not
   * loaded), for the web console's form.
   */
  async configOf(pluginId: string): Promise<PluginConfigView> {
    const status = this.#statuses.find((entry) => entry.id === pluginId);
    if (status === undefined) throw new InvalidArgumentError('PluginManager.configOf', 'pluginId', pluginId, 'the id of a discovered plugin');
    return readPluginConfigView(status.folder, this.get(pluginId), pluginConfigFile(status.folder, pluginId, this.#options.host.configDir));
  }

  /**
   * Reloads one plugin without restarting the host (after its config was saved): unloads it
   * if it is loaded, then runs its entry, config, registration and `onLoad` again from its
   * folder. A plugin that was switched off loads when its config now switches it on; one that
   * is now switched off stays unloaded; one skipped for a dependency loads if the dependency is
   * there now. Resolves to its new status. `onUnload` and `onLoad` each have the lifecycle
   * timeout: an `onLoad` past it leaves the plugin failed.
   *
   * Its dependents follow, in dependency order: each loaded one reloads (it was built against
   * the old instance), each skipped for a dependency loads if it now can, and when the plugin
   * did not come back (switched off, failed) the loaded ones unload and are skipped, naming it.
   */
  async reload(pluginId: string): Promise<PluginStatus> {
    const status = this.#statuses.find((entry) => entry.id === pluginId);
    const refusal = reloadRefusal(pluginId, status);
    if (refusal !== undefined || status === undefined) throw refusal;
    const loaded = this.#loaded.find((entry) => entry.plugin.id === pluginId);
    if (loaded !== undefined) await this.#unload(loaded);
    await this.#loadAgain(status, loaded !== undefined);
    await this.#followDependency(pluginId);
    return status;
  }

  /**
   * Loads a plugin folder the host did not see at start (a package just installed, a folder
   * just created in plugins/), checked as discovery checks one (location, manifest, first
   * with its id, host range, switch), added to `list()`, and loaded like `reload` loads;
   * dependents skipped for want of it then load. A folder already listed reloads: its
   * plugin's `reload`, or discovery again when discovery had refused it (a manifest since
   * fixed). Resolves to its status; a plugin's failure is in the status, never thrown. A
   * folder outside every plugin root is an InvalidArgumentError.
   */
  async loadFolder(folder: string): Promise<PluginStatus> {
    const path = resolve(folder);
    const root = rootHoldingFolder(this.#options.roots, path);
    if (root === undefined) {
      const roots = this.#options.roots.map((entry) => (entry.packages === true ? resolve(entry.path, 'node_modules') : entry.path)).join(', ');
      throw new InvalidArgumentError('PluginManager.loadFolder', 'folder', path, `a folder inside a plugin root (${roots})`);
    }
    const listed = this.#statuses.find((entry) => entry.folder === path);
    if (listed?.id !== undefined && reloadRefusal(listed.id, listed) === undefined) return this.reload(listed.id);

    const seen = new Map<string, string>();
    for (const status of this.#statuses) if (status !== listed && claimsItsId(status)) seen.set(status.id!, status.folder);
    const options = this.#options;
    const { status, plugin } = discoverFolder(root, path, seen, {
      hostVersion: options.host.version,
      forceCompatibility: options.forceCompatibility,
      logger: this.#logger,
      configDir: options.host.configDir,
      compatibilityNotices,
    });
    // A folder listed before keeps its place in the list.
    if (listed === undefined) this.#statuses.push(status);
    else this.#statuses.splice(this.#statuses.indexOf(listed), 1, status);
    if (status.id === undefined || (plugin === undefined && status.state !== 'disabled')) return status;
    if (plugin === undefined) {
      this.#discovered.set(status.id, this.#entryOf(status));
    } else {
      this.#discovered.set(status.id, plugin);
      await this.#loadAgain(status, false);
    }
    await this.#followDependency(status.id);
    return status;
  }

  /**
   * Takes a plugin out of the host (its package was just removed, its folder deleted):
   * unloads it if it is loaded (`onUnload`, then its disposers), drops its status from
   * `list()`, and its loaded dependents unload and are skipped, naming it (optional ones
   * reload without it). An id not in `list()` is an InvalidArgumentError.
   */
  async removePlugin(pluginId: string): Promise<void> {
    const status = this.#statuses.find((entry) => entry.id === pluginId && claimsItsId(entry));
    if (status === undefined) throw new InvalidArgumentError('PluginManager.removePlugin', 'pluginId', pluginId, 'the id of a listed plugin');
    const loaded = this.#loaded.find((entry) => entry.plugin.id === pluginId);
    if (loaded !== undefined) await this.#unload(loaded);
    this.#statuses.splice(this.#statuses.indexOf(status), 1);
    this.#discovered.delete(pluginId);
    this.#logger.info({ id: pluginId, directory: status.folder }, 'plugin removed from the host');
    await this.#followDependency(pluginId);
  }

  /**
   * Reloads a plugin with the code now in its folder without losing the running version to
   * a broken save (watch mode): the manifest, the entry (and what it imports) and the config
   * are read first, and when any fails, or a dependency is missing, the running version is
   * left alone. Then the running version unloads and the new one is registered and loaded;
   * when that fails (a constructor, a registration, `onLoad`), the previous version is
   * registered and loaded again with the settings it ran with. Its dependents follow as in
   * `reload`. A plugin that is not loaded loads as `loadFolder` loads its folder. Nothing is
   * logged for a failure kept from taking over: the outcome says why, for the caller to report.
   */
  async reloadKeepingPrevious(pluginId: string): Promise<ReloadOutcome> {
    const status = this.#statuses.find((entry) => entry.id === pluginId && claimsItsId(entry));
    if (status === undefined) throw new InvalidArgumentError('PluginManager.reloadKeepingPrevious', 'pluginId', pluginId, 'the id of a listed plugin');
    const loaded = this.#loaded.find((entry) => entry.plugin.id === pluginId);
    if (loaded === undefined) return { result: 'changed', status: await this.loadFolder(status.folder) };
    const kept = (failure: ReloadFailure): ReloadOutcome => ({ result: 'kept', status, failure });

    let discovered: DiscoveredPlugin;
    try {
      discovered = this.#entryOf(status);
    } catch (error) {
      return kept(reloadFailure('manifest', error, status.folder));
    }
    if (discovered.manifest.id !== pluginId) {
      const reason = `_manifest.json: the id changed from ${pluginId} to ${discovered.manifest.id}; restart the host to load the plugin under its new id`;
      return kept({ stage: 'manifest', reason, location: undefined });
    }
    const graph = [...this.#discovered.values()].map((plugin) => (plugin.manifest.id === pluginId ? discovered : plugin));
    const blocked =
      orderByDependencies(graph).problems.get(pluginId) ??
      this.#blockedBy(discovered.manifest, (id) => this.#loaded.some((entry) => entry.plugin.id === id));
    if (blocked !== undefined) return kept({ stage: 'dependencies', reason: blocked, location: undefined });
    const imported = await settle(importPluginEntry(status.folder, this.#entryImport));
    if (!imported.ok) return kept(reloadFailure('entry', imported.error, status.folder));
    const settings = readPluginSettings({ host: this.#options.host, logger: this.#logger }, discovered, imported.value);
    if (settings.kind === 'failed') return kept(reloadFailure('config', settings.error, status.folder));
    // Switched off in the saved config: that is what the owner asked for, not a broken save.
    if (settings.kind === 'disabled') return { result: 'changed', status: await this.reload(pluginId) };

    // What runs now, to load again if the new code fails after the running version is gone.
    const previous = {
      discovered: { ...discovered, manifest: loaded.plugin.manifest },
      imported: { ok: true as const, value: loaded.plugin.constructor as PluginClass },
      config: loaded.plugin.config as Readonly<Record<string, unknown>>,
    };
    await this.#unload(loaded);
    const failure = await this.#start(discovered, imported, settings.config);
    if (failure === undefined) {
      this.#discovered.set(pluginId, discovered);
      this.#logger.debug({ id: pluginId, version: discovered.manifest.version }, '工具插件已重新加载');
      await this.#followDependency(pluginId);
      return { result: 'reloaded', status };
    }
    const again = await this.#start(previous.discovered, previous.imported, previous.config);
    if (again !== undefined) {
      Object.assign(status, { state: 'failed', stage: again.stage, reason: again.reason, location: again.location });
      this.#logger.error({ id: pluginId, directory: status.folder, stage: again.stage, error: again.reason }, 'the previous version of the plugin failed to load again after its new code failed');
    }
    await this.#followDependency(pluginId);
    return again === undefined ? kept(failure) : { result: 'changed', status, failure };
  }

  /** Registers and loads an imported plugin with the given settings; undefined when it runs, else why not (nothing of it left registered). */
  async #start(discovered: DiscoveredPlugin, imported: Settled<PluginClass>, config: Readonly<Record<string, unknown>>): Promise<ReloadFailure | undefined> {
    const { status, folder, manifest } = discovered;
    const outcome = preparePlugin({ ...this.#options, logger: this.#logger }, discovered, imported, config);
    if (outcome.kind === 'failed') return reloadFailure(outcome.stage, outcome.error, folder);
    if (outcome.kind === 'disabled') return { stage: 'switch', reason: 'switched off', location: undefined }; // not with settings given
    try {
      await this.#runStep(outcome.loaded, 'onLoad');
    } catch (error) {
      outcome.loaded.scope.dispose();
      status.signatures = [];
      return reloadFailure('load', error, folder);
    }
    Object.assign(status, { state: 'loaded', stage: undefined, reason: undefined, location: undefined, name: manifest.name, version: manifest.version });
    this.#loaded.push(outcome.loaded);
    await this.#publishLoaded(status);
    return undefined;
  }

  /** Loads a discovered plugin at run time from its folder (manifest read again), once its dependencies are there. */
  async #loadAgain(status: PluginStatus, wasLoaded: boolean): Promise<void> {
    Object.assign(status, { state: 'skipped', stage: undefined, reason: undefined, location: undefined, signatures: [] });
    let discovered: DiscoveredPlugin;
    try {
      discovered = this.#entryOf(status);
    } catch (error) {
      return this.#fail(status, 'manifest', error, '工具插件清单无法读取，已跳过该插件');
    }
    this.#discovered.set(discovered.manifest.id, discovered);
    // The manifest read now is what the status shows (an update may have changed its version).
    Object.assign(status, { name: discovered.manifest.name, version: discovered.manifest.version });
    const blocked =
      orderByDependencies([...this.#discovered.values()]).problems.get(discovered.manifest.id) ??
      this.#blockedBy(discovered.manifest, (id) => this.#loaded.some((entry) => entry.plugin.id === id));
    if (blocked !== undefined) return this.#skip(status, blocked);
    const prepared = this.#prepare(discovered, await settle(importPluginEntry(status.folder, this.#entryImport)));
    if (prepared === undefined) return;
    try {
      await this.#runStep(prepared, 'onLoad');
    } catch (error) {
      this.#fail(status, 'load', error, '工具插件加载失败，已从注册表移除');
      prepared.scope.dispose();
      return;
    }
    status.state = 'loaded';
    this.#loaded.push(prepared);
    this.#logger.info({ id: discovered.manifest.id }, wasLoaded ? '工具插件已重新加载' : '工具插件已加载');
    await this.#publishLoaded(status);
  }

  async #publishLoaded(status: PluginStatus): Promise<void> {
    for (const signature of status.signatures) {
      const [plugin_id, kind] = signature.split(':') as [string, never];
      await this.#options.bus.publish('on_component_loaded', { signature, plugin_id, kind });
    }
  }

  /**
   * After `pluginId` loaded, failed or was switched off at run time: its dependents (see
   * `reload`) that are loaded or were skipped for a dependency load again, dependencies first.
   */
  async #followDependency(pluginId: string): Promise<void> {
    const followers = dependentsToFollow(pluginId, [...this.#discovered.values()], ({ status }) => status.state === 'loaded' || status.stage === 'dependencies');
    for (const { status } of followers) {
      const loaded = this.#loaded.find((entry) => entry.plugin.id === status.id);
      if (loaded !== undefined) await this.#unload(loaded);
      await this.#loadAgain(status, loaded !== undefined);
    }
  }

  /** The plugin's folder, root and manifest, read again now (throws `ManifestError`). */
  #entryOf(status: PluginStatus): DiscoveredPlugin {
    const root = rootHoldingFolder(this.#options.roots, status.folder) ?? { path: status.folder, builtIn: status.builtIn };
    return { folder: status.folder, root, manifest: readPluginManifest(status.folder), status };
  }

  #blockedBy(manifest: PluginManifest, ready: (id: string) => boolean): string | undefined {
    return blockedByDependency(manifest, this.#statuses, ready);
  }

  #skip(status: PluginStatus, reason: string): void {
    Object.assign(status, { state: 'skipped', stage: 'dependencies', reason });
    this.#logger.warn({ id: status.id, directory: status.folder, reason }, '工具插件因依赖问题被跳过');
  }

  /**
   * Unloads every plugin, newest first: `onUnload` (with the lifecycle timeout), then every
   * disposer. Ends a `loadAll()` still running first. Idempotent.
   */
  async unloadAll(): Promise<void> {
    const loading = this.#loading;
    if (loading !== undefined) {
      loading.stop.abort();
      await loading.done.catch(() => undefined);
    }
    while (this.#loaded.length > 0) await this.#unload(this.#loaded[this.#loaded.length - 1]!);
  }

  /**
   * The union of the capabilities loaded plugins contribute to a stream. A plugin that
   * throws or takes too long is removed; the others still count.
   */
  async streamCapabilities(streamId: string): Promise<Set<string>> {
    const capabilities = new Set<string>();
    const add = (contributed: Iterable<string>) => {
      for (const capability of contributed) if (typeof capability === 'string' && capability !== '') capabilities.add(capability);
    };
    // Asked every turn: a plugin that answers synchronously (most do; the default does) costs
    // no timer and no promise, only one that returns a promise runs against the timeout.
    let pending: Promise<void>[] | undefined;
    for (const loaded of [...this.#loaded]) {
      let contributed: Iterable<string> | Promise<Iterable<string>>;
      try {
        contributed = loaded.plugin.streamCapabilities(streamId);
        if (!isPromiseLike(contributed)) {
          add(contributed);
          continue;
        }
      } catch (error) {
        (pending ??= []).push(this.#quarantine(loaded, 'streamCapabilities', error));
        continue;
      }
      (pending ??= []).push(
        withTimeout(this.#options.clock, Promise.resolve(contributed), this.#options.capabilityTimeoutMs ?? 2_000)
          .then(add)
          .catch((error: unknown) => this.#quarantine(loaded, 'streamCapabilities', error)),
      );
    }
    if (pending !== undefined) await Promise.all(pending);
    return capabilities;
  }

  /**
   * Shows a stored inbound message to every loaded plugin. Returns at once: observers run
   * in the background, and one that throws is removed without touching ingress.
   */
  observeInbound(streamId: string, messageId: string, inbound: unknown): void {
    for (const loaded of [...this.#loaded]) {
      let pending: void | Promise<void>;
      try {
        pending = loaded.plugin.observeInbound(streamId, messageId, inbound);
      } catch (error) {
        void this.#quarantine(loaded, 'observeInbound', error);
        continue;
      }
      if (pending instanceof Promise) pending.catch((error: unknown) => this.#quarantine(loaded, 'observeInbound', error));
    }
  }

  #prepare(discovered: DiscoveredPlugin, imported: Settled<PluginClass>): LoadedPlugin | undefined {
    const outcome = preparePlugin({ ...this.#options, logger: this.#logger }, discovered, imported);
    const { status, folder, manifest } = discovered;
    if (outcome.kind === 'ready') return outcome.loaded;
    if (outcome.kind === 'failed') {
      this.#fail(status, outcome.stage, outcome.error, outcome.message);
      return undefined;
    }
    const configFile = configFileLabel(folder, pluginConfigFile(folder, manifest.id, this.#options.host.configDir));
    Object.assign(status, { state: 'disabled', stage: 'switch', reason: `${configFile}: [plugin] enabled is off` });
    this.#logger.info({ id: manifest.id, directory: folder }, '工具插件已在自身配置中关闭');
    return undefined;
  }

  async #unload(loaded: LoadedPlugin): Promise<void> {
    const index = this.#loaded.indexOf(loaded);
    if (index < 0) return;
    this.#loaded.splice(index, 1);
    const id = loaded.plugin.id;
    try {
      await this.#runStep(loaded, 'onUnload');
    } catch (error) {
      this.#logger.error({ id, step: 'onUnload', error: lifecycleReasonOf(error) }, '工具插件卸载失败');
    }
    loaded.scope.dispose();
    for (const signature of loaded.status.signatures) {
      const [plugin_id, kind] = signature.split(':') as [string, never];
      await this.#options.bus.publish('on_component_unloaded', { signature, plugin_id, kind });
    }
    await this.#options.bus.publish('on_plugin_unloaded', { plugin_id: id });
  }

  /** Runs `onLoad` or `onUnload` under the lifecycle timeout (see `runLifecycleStep`). */
  #runStep(loaded: LoadedPlugin, step: LifecycleStep, stopped?: AbortSignal): Promise<void> {
    return runLifecycleStep({
      step,
      run: () => (step === 'onLoad' ? loaded.plugin.onLoad() : loaded.plugin.onUnload()),
      clock: this.#options.clock,
      timeoutMs: this.#options.lifecycleTimeoutMs ?? 30_000,
      ...(stopped === undefined ? {} : { stopped }),
      ...(step === 'onLoad' ? { completedLate: () => void this.#unloadLate(loaded) } : {}),
    });
  }

  /** An `onLoad` that completed after it was given up on: the plugin is not loaded, so let it clean up. */
  async #unloadLate(loaded: LoadedPlugin): Promise<void> {
    const id = loaded.plugin.id;
    this.#logger.warn({ id, step: 'onLoad' }, 'the plugin finished onLoad after it was given up on; running its onUnload');
    try {
      await this.#runStep(loaded, 'onUnload');
    } catch (error) {
      this.#logger.error({ id, step: 'onUnload', error: lifecycleReasonOf(error) }, '工具插件卸载失败');
    }
  }

  async #quarantine(loaded: LoadedPlugin, stage: 'observeInbound' | 'streamCapabilities', error: unknown): Promise<void> {
    if (!this.#loaded.includes(loaded)) return;
    this.#fail(loaded.status, 'runtime', error, `工具插件在 ${stage} 中出错，已从注册表移除`);
    await this.#unload(loaded);
    await this.#followDependency(loaded.plugin.id);
  }

  #fail(status: PluginStatus, stage: NonNullable<PluginStatus['stage']>, error: unknown, message: string): void {
    status.state = 'failed';
    status.stage = stage;
    status.reason = lifecycleReasonOf(error);
    status.location = errorLocation(error, status.folder);
    const at = status.location === undefined ? {} : { at: formatLocation(status.location) };
    this.#logger.error({ id: status.id, directory: status.folder, stage, error: status.reason, ...at }, message);
  }
}

/** Whether discovery gave this status its id (a later folder with the same id is then a duplicate). */
function claimsItsId(status: PluginStatus): boolean {
  return status.id !== undefined && status.stage !== 'duplicate' && status.stage !== 'type';
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

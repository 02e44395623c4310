import { mkdirSync } from 'node:fs';
import { createPluginPlatformAccess } from '../../chat/platform-actions.js';
import { join } from 'node:path';
import type { ChatRuntime } from '../../chatter/chat-runtime.js';
import { pluginLogger } from '../../kernel/logger/create-logger.js';
import type { Logger } from '../../kernel/logger/logger.js';
import type { ComponentRegistry } from '../../kernel/registry/component-registry.js';
import type { PluginScope } from '../../kernel/scope/plugin-scope.js';
import type { Clock } from '../../kernel/time/clock.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import { configModelOf } from '../config/config-model-of.js';
import { pluginConfigFile } from '../config/plugin-config-file.js';
import { reconcilePluginConfig } from '../config/reconcile-plugin-config.js';
import type { DiscoveredPlugin } from '../discovery/discover-plugins.js';
import type { PluginStatus } from '../discovery/plugin-status.js';
import type { PluginContext, PluginHostFacts, PluginServiceFactories } from '../plugin-context.js';
import { createPluginEffects } from '../plugin-effects.js';
import { attachPluginRuntime, type ToolPlugin } from '../tool-plugin.js';
import { UNWIRED_SERVICES } from '../unwired-services.js';
import type { PluginClass } from './import-plugin-entry.js';
import { registerPluginComponents } from './register-plugin-components.js';
import { unwiredSchedule } from '../schedule/plugin-schedules.js';
import type { Settled } from './settle.js';

/** A plugin whose tools and components are registered, ready for (or past) its `onLoad`. */
export interface LoadedPlugin {
  plugin: ToolPlugin<unknown>;
  scope: PluginScope;
  status: PluginStatus;
  logger: Logger;
}

export interface PrepareDeps {
  registry: ComponentRegistry;
  tools: ToolRegistry;
  clock: Clock;
  host: PluginHostFacts;
  chat?: ChatRuntime | undefined;
  services?: PluginServiceFactories | undefined;
  createScope(pluginId: string): PluginScope;
  /** The host's logger (each plugin gets a child of it). */
  logger: Logger;
}

export type Preparation =
  | { kind: 'ready'; loaded: LoadedPlugin }
  | { kind: 'disabled' }
  | { kind: 'failed'; stage: 'entry' | 'config' | 'register'; error: unknown; message: string };

/** A plugin's settings read from its config file through its config model: the config it runs with, or why not. */
export type PluginSettings =
  | { kind: 'ready'; config: Readonly<Record<string, unknown>> }
  | { kind: 'disabled' }
  | { kind: 'failed'; stage: 'config'; error: unknown; message: string };

/**
 * Reconciles a plugin's config file with the config model of `PluginClass` (writing missing
 * fields, see `reconcilePluginConfig`) and decides phase two of the switch.
 */
export function readPluginSettings(deps: Pick<PrepareDeps, 'host' | 'logger'>, discovered: DiscoveredPlugin, PluginClass: PluginClass): PluginSettings {
  const { manifest, folder } = discovered;
  let config: { enabled?: unknown };
  try {
    const model = configModelOf(PluginClass);
    // The root logger: reconcile adds the plugin id to its lines itself.
    const file = pluginConfigFile(folder, manifest.id, deps.host.configDir);
    config = reconcilePluginConfig({ directory: folder, file, model, pluginId: manifest.id, logger: deps.logger }).config as { enabled?: unknown };
  } catch (error) {
    return { kind: 'failed', stage: 'config', error, message: '工具插件配置处理失败，已跳过该插件' };
  }
  // Phase two of the switch: the model's own coercion has decided `enabled`.
  if (config.enabled === false) return { kind: 'disabled' };
  return { kind: 'ready', config };
}

/**
 * Everything before a plugin's `onLoad`: its imported entry, its config (phase two of the
 * switch; `config` given skips reading it: the settings already read, or the ones a previous
 * instance ran with), a scope, the plugin instance with its `ctx`, and its tools and
 * components registered (and checked, see `registerPluginComponents`). A failure after the
 * scope exists disposes it: nothing the plugin registered is left behind.
 */
export function preparePlugin(
  deps: PrepareDeps,
  discovered: DiscoveredPlugin,
  imported: Settled<PluginClass>,
  config?: Readonly<Record<string, unknown>>,
): Preparation {
  const { manifest, folder, status } = discovered;
  if (!imported.ok) return { kind: 'failed', stage: 'entry', error: imported.error, message: '工具插件加载失败，已跳过该插件' };
  const PluginClass = imported.value;
  const logger = pluginLogger(deps.logger, manifest.id);
  let settings: PluginSettings = { kind: 'ready', config: config ?? {} };
  if (config === undefined) settings = readPluginSettings(deps, discovered, PluginClass);
  if (settings.kind !== 'ready') return settings;

  const scope = deps.createScope(manifest.id);
  try {
    const plugin = new PluginClass(manifest);
    const dataDir = join(deps.host.dataDir, 'plugins', manifest.id);
    mkdirSync(dataDir, { recursive: true });
    const services = deps.services ?? UNWIRED_SERVICES;
    const ctx: PluginContext = Object.freeze({
      logger,
      paths: Object.freeze({ pluginDir: folder, dataDir, configFile: pluginConfigFile(folder, manifest.id, deps.host.configDir) }),
      host: Object.freeze({ ...deps.host }),
      chat: deps.chat,
      mcp: services.mcp(manifest.id),
      media: services.media(manifest.id),
      platform: createPluginPlatformAccess(manifest.id, () => deps.chat),
      schedule: services.schedule?.(manifest.id, scope, logger) ?? unwiredSchedule(manifest.id),
      ...createPluginEffects(scope, deps.clock, logger, deps.registry),
    });
    attachPluginRuntime(plugin, { config: Object.freeze(settings.config), ctx });
    deps.registry.attachPlugin(scope, plugin, logger);
    status.signatures = registerPluginComponents({ plugin, scope, registry: deps.registry, tools: deps.tools, logger });
    return { kind: 'ready', loaded: { plugin, scope, status, logger } };
  } catch (error) {
    scope.dispose();
    status.signatures = [];
    return { kind: 'failed', stage: 'register', error, message: '工具插件加载失败，已跳过该插件' };
  }
}

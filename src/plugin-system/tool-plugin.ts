import type * as z from 'zod';
import type { ComponentClass } from '../kernel/components/component-metadata.js';
import { type ToolDefinition, toolDefinitionsFromDecorators } from '../tools/tool-definition.js';
import { PluginNotReadyError } from './errors/plugin-not-ready-error.js';
import type { PluginManifest } from './manifest/plugin-manifest.js';
import type { PluginContext } from './plugin-context.js';

const TOOL_PLUGIN_MARKER = Symbol.for('moonglass.ToolPlugin');

/** What the host sets on a plugin before `onLoad`. */
interface PluginRuntime {
  config: unknown;
  ctx: PluginContext;
}

const runtimes = new WeakMap<object, PluginRuntime>();

/**
 * The base of every plugin: exactly one subclass per plugin entry file, constructed by the
 * host with the manifest alone. Declare tools with `@tool` on async methods, return component
 * classes from `components()`, put a zod config model (extending `PluginConfig`) on the static
 * `configModel`, and read `this.config` / `this.ctx` from `onLoad` on.
 *
 * ```ts
 * const HelloConfig = PluginConfig.extend({ greeting: z.string().default('你好').describe('问候语') });
 * export class HelloPlugin extends ToolPlugin<z.output<typeof HelloConfig>> {
 *   static override configModel = HelloConfig;
 * }
 * ```
 */
export abstract class ToolPlugin<
  TConfig = {
    /** Whether the plugin is switched on (`config.toml [plugin] enabled`); a switched-off plugin is not loaded. */
    enabled: boolean;
  },
> {
  /** Marks ToolPlugin subclasses across copies of the package. */
  static readonly [TOOL_PLUGIN_MARKER] = true;
  /** The plugin's config model; `undefined` means just the `enabled` switch. */
  static configModel: z.ZodObject | undefined = undefined;

  /** The plugin's validated `_manifest.json`, as the host read it. */
  readonly manifest: PluginManifest;

  constructor(manifest: PluginManifest) {
    this.manifest = manifest;
  }

  /** The manifest id. */
  get id(): string {
    return this.manifest.id;
  }

  /** The validated config, typed by the model; set by the host before `onLoad`. */
  get config(): TConfig {
    const runtime = runtimes.get(this);
    if (runtime === undefined) throw new PluginNotReadyError(this.manifest.id, 'config');
    return runtime.config as TConfig;
  }

  /** Logger, paths and host facts; set by the host before `onLoad`. */
  get ctx(): PluginContext {
    const runtime = runtimes.get(this);
    if (runtime === undefined) throw new PluginNotReadyError(this.manifest.id, 'ctx');
    return runtime.ctx;
  }

  /**
   * The tools this plugin offers; collected before `onLoad`, so they must not depend on
   * state `onLoad` sets up. Default: every `@tool` method. Override to adjust a spec (a
   * `timeoutMs` from config, say), calling `super.tools()`.
   */
  tools(): ToolDefinition[] {
    return toolDefinitionsFromDecorators(this);
  }

  /** Component classes (`@service`, `@action`, `@eventHandler`, `@chatter`); collected before `onLoad`. */
  components(): ComponentClass[] {
    return [];
  }

  /** Called once after the plugin's tools and components are registered. May do I/O. */
  async onLoad(): Promise<void> {}

  /** Called once when the plugin unloads (newest plugin first). Must be safe to call again. */
  async onUnload(): Promise<void> {}

  /**
   * Sees every stored inbound message, for plugins that index a conversation. Must not
   * block: the host does not wait for it, and a throw removes only this plugin.
   */
  observeInbound(_streamId: string, _messageId: string, _inbound: unknown): void | Promise<void> {}

  /**
   * Capabilities this plugin contributes to one stream. A tool is offered in a stream only
   * when all its `capabilities` are present there.
   */
  streamCapabilities(_streamId: string): Iterable<string> | Promise<Iterable<string>> {
    return [];
  }
}

/** True for a class that extends `ToolPlugin` (from any copy of the package), not ToolPlugin itself. */
export function isToolPluginClass(value: unknown): value is new (manifest: PluginManifest) => ToolPlugin<unknown> {
  return (
    typeof value === 'function' &&
    (value as unknown as Record<symbol, unknown>)[TOOL_PLUGIN_MARKER] === true &&
    !Object.hasOwn(value, TOOL_PLUGIN_MARKER)
  );
}

/** Host only: sets `config` and `ctx` on a plugin before its `onLoad`. */
export function attachPluginRuntime(plugin: ToolPlugin<unknown>, runtime: PluginRuntime): void {
  runtimes.set(plugin, runtime);
}

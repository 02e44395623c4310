import type { Container, Newable, ServiceIdentifier } from 'inversify';
import { lifetimeOf } from '../components/component-lifetime.js';
import { type ComponentClass, readComponentMetadata } from '../components/component-metadata.js';
import { BindingOverrideError } from '../errors/binding-override-error.js';
import { describeError } from '../errors/describe-error.js';
import { ComponentDeclarationError } from '../errors/component-declaration-error.js';
import { ComponentResolutionError } from '../errors/component-resolution-error.js';
import { SignatureCollisionError } from '../errors/signature-collision-error.js';
import type { BaseEventHandler } from '../event-bus/base-event-handler.js';
import type { EventBus, EventHandlerFunction } from '../event-bus/event-bus.js';
import type { Logger } from '../logger/logger.js';
import type { Disposer } from '../scope/disposer.js';
import type { PluginScope } from '../scope/plugin-scope.js';
import { formatSignature } from '../signature/format-signature.js';
import { parseSignature, type Signature } from '../signature/parse-signature.js';
import { PLUGIN_SCOPED_TOKENS, TOKENS } from '../tokens.js';
import type { ComponentFilter, ComponentRecord } from './component-record.js';
import { exposedPluginKey } from './exposed-plugin-key.js';
import { type OverrideTarget, type Recipe, overrideRecipe } from './override-recipe.js';
import { type BindingOwner, requestOwner } from './request-owner.js';
import { singletonRecipe } from './singleton-recipe.js';

export type { OverrideTarget } from './override-recipe.js';

interface HandlerSubscription {
  instance: BaseEventHandler;
  disposers: Disposer[];
}

function describeIdentifier(identifier: ServiceIdentifier): string {
  return typeof identifier === 'symbol' ? identifier.toString() : String(identifier);
}

/**
 * Components by signature over one inversify container. Registering binds a component class
 * (transient: every `get` builds a new instance; a `lifetime: 'singleton'` one is built once
 * per binding and disposed with it), refuses signature collisions, subscribes event handlers
 * to the bus, and returns a disposer owned by the plugin's scope.
 */
export class ComponentRegistry {
  readonly #container: Container;
  readonly #bus: EventBus;
  readonly #records = new Map<Signature, ComponentRecord>();
  readonly #recipes = new Map<ServiceIdentifier, Recipe[]>();
  readonly #handlers = new Map<Signature, HandlerSubscription>();
  /** The scope each attached plugin was loaded with: the only scope that may act under its id. */
  readonly #attachedPlugins = new Map<string, PluginScope>();
  /** The attached plugin instances, to spot a component that exposes its own. */
  readonly #pluginInstances = new WeakSet<object>();
  /** Component classes whose first instance was checked for an exposed plugin. */
  readonly #checkedClasses = new WeakSet<object>();
  readonly #logger: Logger;
  /** What each core token resolved to under its current binding (see `core()`). */
  readonly #coreValues = new Map<symbol, unknown>();
  /** Who bound each identifier now: the owner of the top recipe of its stack. */
  readonly #ownerOf = (identifier: ServiceIdentifier): BindingOwner | undefined => this.#recipes.get(identifier)?.at(-1)?.owner;

  constructor(options: { container: Container; bus: EventBus; logger: Logger }) {
    this.#container = options.container;
    this.#bus = options.bus;
    this.#logger = options.logger;
    // The host's logger for everything that is not inside a plugin's component.
    this.#container
      .bind(TOKENS.Logger)
      .toConstantValue(options.logger)
      .when((constraints) => {
        const owner = requestOwner(constraints, this.#ownerOf);
        return owner === undefined || !this.#attachedPlugins.has(owner);
      });
  }

  /** Binds a host-provided value (clock, config, bus ...) under a core token. */
  bindCore<T>(token: symbol, value: T): void {
    if (PLUGIN_SCOPED_TOKENS.has(token)) throw new BindingOverrideError(token.toString(), 'it is bound per plugin by attachPlugin()');
    if (this.#recipes.has(token)) throw new BindingOverrideError(token.toString(), 'it is bound already; use override()');
    const recipe: Recipe = { owner: null, bind: (container, identifier) => void container.bind(identifier).toConstantValue(value) };
    this.#recipes.set(token, [recipe]);
    recipe.bind(this.#container, token);
  }

  /**
   * What the core token is bound to now. Resolved once per binding: an override (or undoing
   * one) makes the next call resolve again, so the host's facades (`followCore`) follow the
   * current binding at the cost of one map lookup. A `useFactory` override runs once.
   */
  core<T>(token: symbol): T {
    const cached = this.#coreValues.get(token);
    if (cached !== undefined || this.#coreValues.has(token)) return cached as T;
    if (!this.#recipes.has(token)) throw new BindingOverrideError(token.toString(), 'nothing is bound to it yet (core services are bound while the host starts)');
    const value = this.#container.get<T>(token);
    this.#coreValues.set(token, value);
    return value;
  }

  /** True when something is bound to the core token (some are bound only once the host starts). */
  hasCore(token: symbol): boolean {
    return this.#recipes.has(token);
  }

  /**
   * Makes `TOKENS.Plugin` and `TOKENS.Logger` resolve to this plugin and its logger inside
   * the plugin's components. Call before registering its components.
   */
  attachPlugin(scope: PluginScope, plugin: object, logger: Logger): Disposer {
    scope.assertActive('attachPlugin');
    const pluginId = scope.id;
    if (this.#attachedPlugins.has(pluginId)) throw new BindingOverrideError(`plugin ${pluginId}`, 'a plugin with this id is attached already');
    const owns = (constraints: Parameters<typeof requestOwner>[0]): boolean => requestOwner(constraints, this.#ownerOf) === pluginId;
    const pluginBinding = this.#container.bind(TOKENS.Plugin).toConstantValue(plugin).when(owns).getIdentifier();
    const loggerBinding = this.#container.bind(TOKENS.Logger).toConstantValue(logger).when(owns).getIdentifier();
    this.#attachedPlugins.set(pluginId, scope);
    this.#pluginInstances.add(plugin);
    return scope.effect(`plugin ${pluginId}`, () => {
      this.#attachedPlugins.delete(pluginId);
      this.#container.unbind(pluginBinding);
      this.#container.unbind(loggerBinding);
    });
  }

  /** Registers one decorated component class for the scope's plugin. Returns its disposer. */
  register(scope: PluginScope, componentClass: ComponentClass): Disposer {
    const metadata = readComponentMetadata(componentClass);
    if (metadata === undefined) {
      throw new ComponentDeclarationError(
        componentClass.name || '(anonymous class)',
        'decorator',
        'is missing: decorate the class with @service, @action, @eventHandler or @chatter',
      );
    }
    const signature = formatSignature({ pluginId: scope.id, kind: metadata.kind, name: metadata.name });
    this.#assertOwnScope(scope, `component ${signature}`);
    const existing = this.#records.get(signature);
    if (existing !== undefined) {
      throw new SignatureCollisionError(signature, existing.pluginId, scope.id, {
        existing: existing.componentClass.name,
        added: componentClass.name,
      });
    }
    scope.assertActive(`component ${signature}`);

    const useClass = componentClass as unknown as Newable<unknown>;
    const recipe: Recipe =
      lifetimeOf(metadata) === 'singleton'
        ? singletonRecipe(signature, { useClass }, scope.id, scope, this.#logger)
        : { owner: scope.id, bind: (container, identifier) => void container.bind(identifier).to(useClass).inTransientScope() };
    try {
      recipe.bind(this.#container, signature);
    } catch (error) {
      // inversify reads the constructor's metadata when it binds a class (a missing @inject, say)
      if (this.#container.isBound(signature)) this.#container.unbind(signature);
      throw new ComponentDeclarationError(componentClass.name || '(anonymous class)', 'constructor', `cannot be bound as ${signature}: ${describeError(error)}`);
    }
    this.#recipes.set(signature, [recipe]);
    const record: ComponentRecord = { signature, kind: metadata.kind, name: metadata.name, pluginId: scope.id, componentClass, metadata };
    this.#records.set(signature, record);
    try {
      if (metadata.kind === 'event_handler') this.#subscribeHandler(record);
    } catch (error) {
      this.#unregister(signature);
      throw error;
    }
    return scope.effect(`component ${signature}`, () => this.#unregister(signature));
  }

  /**
   * Registers a tool of the scope's plugin as `<plugin>:tool:<name>`, bound to the tool's
   * definition (a value: `get` returns the same definition). `ownerClass` is the plugin class.
   */
  registerTool(scope: PluginScope, tool: { name: string; description: string }, ownerClass: ComponentClass): Disposer {
    const signature = formatSignature({ pluginId: scope.id, kind: 'tool', name: tool.name });
    this.#assertOwnScope(scope, `tool ${signature}`);
    const existing = this.#records.get(signature);
    if (existing !== undefined) throw new SignatureCollisionError(signature, existing.pluginId, scope.id);
    scope.assertActive(`tool ${signature}`);
    const recipe: Recipe = { owner: scope.id, bind: (container, identifier) => void container.bind(identifier).toConstantValue(tool) };
    recipe.bind(this.#container, signature);
    this.#recipes.set(signature, [recipe]);
    this.#records.set(signature, {
      signature,
      kind: 'tool',
      name: tool.name,
      pluginId: scope.id,
      componentClass: ownerClass,
      metadata: { kind: 'tool', name: tool.name, description: tool.description },
    });
    return scope.effect(`tool ${signature}`, () => this.#unregister(signature));
  }

  /**
   * A new instance of the component bound to `signature`, or `undefined` when nothing is.
   * Throws `SignatureError` for a malformed signature and `ComponentResolutionError` when the
   * component exists but cannot be built.
   */
  get<T = unknown>(signature: string): T | undefined {
    // Asking the registry's own map first keeps the miss path free of exceptions: a throw
    // inside inversify on every miss deoptimised this function for the hits too.
    const stack = this.#recipes.get(signature);
    if (stack === undefined) {
      parseSignature(signature);
      return undefined;
    }
    let instance: T;
    try {
      instance = this.#container.get<T>(signature);
    } catch (error) {
      throw new ComponentResolutionError(signature, error);
    }
    // One lookup for both questions on the hot path: the binding's recipe remembers that its
    // instances were checked (getService must stay within 1.3x of container.get).
    const recipe = stack[stack.length - 1]!;
    if (recipe.exposureChecked !== true && typeof instance === 'object' && instance !== null) {
      recipe.exposureChecked = true;
      this.#warnIfPluginExposed(signature, instance);
    }
    return instance;
  }

  /** Once per component class: a warning when an instance keeps its plugin in a readable property. */
  #warnIfPluginExposed(signature: string, instance: object): void {
    const componentClass = instance.constructor;
    if (this.#checkedClasses.has(componentClass)) return;
    this.#checkedClasses.add(componentClass);
    const key = exposedPluginKey(instance, this.#pluginInstances);
    if (key === undefined) return;
    this.#logger.warn(
      { signature, property: String(key) },
      `${signature} keeps its plugin in the readable property ${String(key)}: any plugin that gets this component can read this plugin's config; keep it in a #private field instead`,
    );
  }

  /**
   * True when an injection of `identifier` finds something now: a registered component or
   * tool, a core token, `TOKENS.Plugin` and `TOKENS.Logger` (bound per plugin), or a binding
   * made on the container directly. Builds nothing.
   */
  isBound(identifier: ServiceIdentifier): boolean {
    if (this.#recipes.has(identifier)) return true;
    if (typeof identifier === 'symbol' && PLUGIN_SCOPED_TOKENS.has(identifier)) return true;
    return this.#container.isBound(identifier);
  }

  /** The record of a registered component. */
  record(signature: string): ComponentRecord | undefined {
    return this.#records.get(signature as Signature);
  }

  /** Registered components, in registration order, optionally by kind and plugin. */
  list(filter: ComponentFilter = {}): ComponentRecord[] {
    const result: ComponentRecord[] = [];
    for (const record of this.#records.values()) {
      if (filter.kind !== undefined && record.kind !== filter.kind) continue;
      if (filter.pluginId !== undefined && record.pluginId !== filter.pluginId) continue;
      result.push(record);
    }
    return result;
  }

  /**
   * Rebinds a component signature or a core token to something else; `get`, `getService`
   * and injection then return the override. The disposer restores what was there before.
   * With `scope`, the override is that plugin's: its class gets that plugin as `TOKENS.Plugin`
   * and its logger, and unloading the plugin undoes it. Everything is checked before anything
   * is bound (the kind of a component class, an event handler's `execute`, that something is
   * bound); a refused override throws `BindingOverrideError` and changes nothing. A tool
   * signature is refused: tools are called through the tool registry, not the container.
   * An override keeps the lifetime of the signature it replaces: a class or factory override
   * of a singleton is built once (and disposed when undone), and the instance it replaces is
   * disposed; undoing the override builds a fresh original on the next `get`.
   */
  override<T>(identifier: Signature | symbol, target: OverrideTarget<T>, scope?: PluginScope): Disposer {
    const shown = describeIdentifier(identifier);
    if (typeof identifier === 'symbol' && PLUGIN_SCOPED_TOKENS.has(identifier)) {
      throw new BindingOverrideError(shown, 'it resolves per plugin; pass a logger to createHost() or rebind the component instead');
    }
    if (scope !== undefined) {
      scope.assertActive(`override ${shown}`);
      this.#assertOwnScope(scope, `override ${shown}`);
    }
    const stack = this.#recipes.get(identifier);
    if (stack === undefined) throw new BindingOverrideError(shown, 'nothing is bound to it');
    const record = typeof identifier === 'string' ? this.#records.get(identifier) : undefined;
    const replaced = typeof identifier === 'symbol' ? () => this.core(identifier) : undefined;
    const checked = overrideRecipe(shown, record, target, scope?.id ?? null, replaced);
    const recipe =
      lifetimeOf(record?.metadata) === 'singleton' && ('useClass' in target || 'useFactory' in target)
        ? singletonRecipe(shown, target, checked.owner, scope, this.#logger)
        : checked;
    const previous = stack[stack.length - 1]!;
    stack.push(recipe);
    try {
      this.#apply(identifier, recipe);
    } catch (error) {
      stack.pop();
      this.#rebind(identifier, previous);
      throw new BindingOverrideError(shown, `the override cannot stand in for it: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    let disposed = false;
    const undo = (): void => {
      if (disposed) return;
      disposed = true;
      const current = this.#recipes.get(identifier);
      if (current !== stack) return; // the component itself was unregistered meanwhile
      const wasActive = stack[stack.length - 1] === recipe;
      stack.splice(stack.indexOf(recipe), 1);
      if (wasActive) this.#apply(identifier, stack[stack.length - 1]!);
    };
    return scope === undefined ? undo : scope.effect(`override ${shown}`, undo);
  }

  /**
   * Refuses a scope that stands in for a loaded plugin without being the scope the host
   * loaded it with (a hand-made `new PluginScope(otherId, ...)`): a plugin's identity, and so
   * its `TOKENS.Plugin`, logger and config, cannot be borrowed.
   */
  #assertOwnScope(scope: PluginScope, label: string): void {
    const own = this.#attachedPlugins.get(scope.id);
    if (own === undefined || own === scope) return;
    throw new BindingOverrideError(
      `the identity of plugin "${scope.id}"`,
      `${label} comes through a PluginScope("${scope.id}") that the host did not create for the loaded plugin "${scope.id}"; ` +
        'a plugin registers and overrides only through its own scope',
    );
  }

  /** Binds `recipe` in place of the current binding; an event handler's instance is rebuilt. */
  #apply(identifier: ServiceIdentifier, recipe: Recipe): void {
    this.#rebind(identifier, recipe);
    const handler = typeof identifier === 'string' ? this.#handlers.get(identifier as Signature) : undefined;
    if (handler !== undefined) handler.instance = this.#buildHandler(identifier as Signature);
  }

  #rebind(identifier: ServiceIdentifier, recipe: Recipe): void {
    if (typeof identifier === 'symbol') this.#coreValues.delete(identifier);
    this.#container.unbind(identifier);
    recipe.bind(this.#container, identifier);
  }

  #subscribeHandler(record: ComponentRecord): void {
    if (record.metadata.kind !== 'event_handler') return;
    const { weight, timeout, subscribe } = record.metadata;
    const subscription: HandlerSubscription = { instance: this.#buildHandler(record.signature), disposers: [] };
    this.#handlers.set(record.signature, subscription);
    for (const event of subscribe) {
      subscription.disposers.push(
        this.#bus.subscribe(event, (eventName, params) => subscription.instance.execute(eventName, params) as ReturnType<EventHandlerFunction>, {
          weight,
          timeout,
          label: record.signature,
          owner: record.pluginId,
        }),
      );
    }
  }

  #buildHandler(signature: Signature): BaseEventHandler {
    const instance = this.get<BaseEventHandler>(signature);
    if (instance === undefined || typeof instance.execute !== 'function') {
      throw new ComponentDeclarationError(signature, 'execute', 'is missing: an event handler extends BaseEventHandler and implements execute()');
    }
    return instance;
  }

  #unregister(signature: Signature): void {
    const handler = this.#handlers.get(signature);
    if (handler !== undefined) {
      for (const dispose of handler.disposers) dispose();
      this.#handlers.delete(signature);
    }
    this.#records.delete(signature);
    this.#recipes.delete(signature);
    if (this.#container.isBound(signature)) this.#container.unbind(signature);
  }
}

import { type ComponentClass, readComponentMetadata } from '../../kernel/components/component-metadata.js';
import type { Logger } from '../../kernel/logger/logger.js';
import type { ComponentRegistry } from '../../kernel/registry/component-registry.js';
import type { PluginScope } from '../../kernel/scope/plugin-scope.js';
import { formatSignature } from '../../kernel/signature/format-signature.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import { ComponentInjectionError } from '../errors/component-injection-error.js';
import type { ToolPlugin } from '../tool-plugin.js';
import { checkComponentInjections } from './check-component-injections.js';

export interface RegisterPluginInput {
  plugin: ToolPlugin<unknown>;
  scope: PluginScope;
  registry: ComponentRegistry;
  tools: ToolRegistry;
  /** The plugin's logger: warnings about undeclared dependencies go there. */
  logger: Logger;
}

/**
 * Registers a plugin's tools and components in its scope and returns their signatures (tools
 * first, then components in `components()` order). Event handlers are registered last, since
 * registering one builds it: before that, every component's injections are checked against
 * what is bound (`checkComponentInjections`), so a component that injects a sibling declared
 * after it is fine, and one that injects what nothing provides throws
 * `ComponentInjectionError` before any handler is built. On a throw, the caller disposes the
 * scope, which undoes everything registered here.
 */
export function registerPluginComponents(input: RegisterPluginInput): string[] {
  const { plugin, scope, registry, logger } = input;
  const { manifest } = plugin;
  const signatures: string[] = [];
  for (const definition of plugin.tools()) {
    scope.effect(`tool ${definition.name}`, input.tools.register(manifest.id, definition));
    registry.registerTool(scope, definition, plugin.constructor as unknown as ComponentClass);
    signatures.push(`${manifest.id}:tool:${definition.name}`);
  }
  const components = plugin.components().map((componentClass) => {
    const metadata = readComponentMetadata(componentClass);
    const signature = metadata === undefined ? undefined : formatSignature({ pluginId: manifest.id, kind: metadata.kind, name: metadata.name });
    return { componentClass, signature, handler: metadata?.kind === 'event_handler' };
  });
  for (const component of components) if (!component.handler) registry.register(scope, component.componentClass);
  const handlers = new Set<string | undefined>(components.filter((component) => component.handler).map((component) => component.signature));
  const { problems, undeclared } = checkComponentInjections({
    manifest,
    components: components.map((component) => ({ componentClass: component.componentClass, signature: component.signature! })),
    isBound: (identifier) => registry.isBound(identifier) || (typeof identifier === 'string' && handlers.has(identifier)),
    isLoaded: (id) => registry.list({ pluginId: id }).length > 0,
  });
  for (const { component, injects, provider, message } of undeclared) logger.warn({ component, injects, provider }, message);
  if (problems.length > 0) throw new ComponentInjectionError(manifest.id, problems);
  for (const component of components) if (component.handler) registry.register(scope, component.componentClass);
  for (const component of components) signatures.push(component.signature!);
  return signatures;
}

import type { ComponentMetadata } from './component-metadata.js';

/**
 * How many instances the container builds of a component: `transient` (the default, as the
 * seed says) builds a new one on every `getService` and every injection; `singleton` builds
 * one per plugin load, shared by every `getService` and injection, and disposed (its
 * `dispose()` or `[Symbol.dispose]()` called) when the plugin unloads or reloads.
 */
export type ComponentLifetime = 'transient' | 'singleton';

export const COMPONENT_LIFETIMES: readonly ComponentLifetime[] = ['transient', 'singleton'];

/** The lifetime a component declared; `transient` when it declared none (or cannot: tools, handlers). */
export function lifetimeOf(metadata: ComponentMetadata | undefined): ComponentLifetime {
  return metadata !== undefined && 'lifetime' in metadata && metadata.lifetime === 'singleton' ? 'singleton' : 'transient';
}

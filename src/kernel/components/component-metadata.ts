import type { ComponentLifetime } from './component-lifetime.js';
import type { ParametersSchema } from './parameters-schema.js';
import type { CommandMetadata } from './command-metadata.js';

export type { CommandMetadata } from './command-metadata.js';

const COMPONENT_METADATA = Symbol.for('moonglass.component');

export interface ServiceMetadata {
  kind: 'service';
  name: string;
  description: string;
  /** Omitted: `transient`, a new instance per `getService` (see `ComponentLifetime`). */
  lifetime?: ComponentLifetime;
}

export interface ActionMetadata {
  kind: 'action';
  name: string;
  /** When the model should use it; the model reads only this. */
  description: string;
  parameters: ParametersSchema;
  lifetime?: ComponentLifetime;
}

export interface EventHandlerMetadata {
  kind: 'event_handler';
  name: string;
  /** Higher runs first; defaults run at 0. */
  weight: number;
  /** Event names this handler subscribes to (enum members or their strings). */
  subscribe: readonly string[];
  /** Seconds; `undefined`/`null` = the bus default, `<= 0` = none. */
  timeout: number | null | undefined;
}

export type ChatType = 'private' | 'group';

export interface ChatterMetadata {
  kind: 'chatter';
  name: string;
  description: string;
  /** Chat types this chatter serves; empty means all. */
  chatTypes: readonly ChatType[];
  /** Platforms this chatter serves; empty means all. */
  platforms: readonly string[];
  lifetime?: ComponentLifetime;
}

export interface AdapterMetadata {
  kind: 'adapter';
  name: string;
  description: string;
}

/** A tool: an `@tool` method of a plugin class, registered as `<plugin>:tool:<name>`. */
export interface ToolMetadata {
  kind: 'tool';
  name: string;
  description: string;
}

/** What a component decorator recorded on a class (tools come from `@tool` methods). */
export type ComponentMetadata = ServiceMetadata | ActionMetadata | EventHandlerMetadata | ChatterMetadata | AdapterMetadata | ToolMetadata | CommandMetadata;

/** A class that a component decorator marked. */
export type ComponentClass<T = unknown> = abstract new (...args: never[]) => T;

/** The metadata a decorator put on `target` itself (never inherited from a base class). */
export function readComponentMetadata(target: unknown): ComponentMetadata | undefined {
  if (typeof target !== 'function' || !Object.hasOwn(target, COMPONENT_METADATA)) return undefined;
  return (target as unknown as Record<symbol, ComponentMetadata>)[COMPONENT_METADATA];
}

export function writeComponentMetadata(target: object, metadata: ComponentMetadata): void {
  Object.defineProperty(target, COMPONENT_METADATA, { value: Object.freeze(metadata), enumerable: false, configurable: true });
}

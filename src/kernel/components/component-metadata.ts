import type { ComponentLifetime } from './component-lifetime.js';
import type { ParametersSchema } from './parameters-schema.js';
import type { CommandMetadata } from './command-metadata.js';

export type { CommandMetadata } from './command-metadata.js';

const COMPONENT_METADATA = Symbol.for('moonglass.component');

/** What `@service` records on a class: `<plugin>:service:<name>`. */
export interface ServiceMetadata {
  /** Which decorator recorded it; the signature's middle part. */
  kind: 'service';
  /** The component's name, the signature's last part. */
  name: string;
  /** What the service offers, for listings; `''` when not given. */
  description: string;
  /** Omitted: `transient`, a new instance per `getService` (see `ComponentLifetime`). */
  lifetime?: ComponentLifetime;
}

/** What `@action` records on a class: `<plugin>:action:<name>`. */
export interface ActionMetadata {
  /** Which decorator recorded it; the signature's middle part. */
  kind: 'action';
  /** The name the model calls it by, and the signature's last part. */
  name: string;
  /** When the model should use it; the model reads only this. */
  description: string;
  /** The arguments the model must give, as JSON Schema or a zod object; calls are validated against it. */
  parameters: ParametersSchema;
  /** Omitted: `transient`, a new instance per call (see `ComponentLifetime`). */
  lifetime?: ComponentLifetime;
}

/** What `@eventHandler` records on a class: `<plugin>:event_handler:<name>`. */
export interface EventHandlerMetadata {
  /** Which decorator recorded it; the signature's middle part. */
  kind: 'event_handler';
  /** The component's name, the signature's last part. */
  name: string;
  /** Higher runs first; defaults run at 0. */
  weight: number;
  /** Event names this handler subscribes to (enum members or their strings). */
  subscribe: readonly string[];
  /** Seconds; `undefined`/`null` = the bus default, `<= 0` = none. */
  timeout: number | null | undefined;
}

/** A chat's type: one-to-one, or a group. */
export type ChatType = 'private' | 'group';

/** What `@chatter` records on a class: `<plugin>:chatter:<name>`. */
export interface ChatterMetadata {
  /** Which decorator recorded it; the signature's middle part. */
  kind: 'chatter';
  /** The component's name, the signature's last part. */
  name: string;
  /** What the chatter does, for listings; `''` when not given. */
  description: string;
  /** Chat types this chatter serves; empty means all. */
  chatTypes: readonly ChatType[];
  /** Platforms this chatter serves; empty means all. */
  platforms: readonly string[];
  /** Omitted: `transient`, a new instance per run (see `ComponentLifetime`). */
  lifetime?: ComponentLifetime;
}

/**
 * The metadata of an adapter component, `<plugin>:adapter:<name>`. No moonglass decorator
 * writes it yet: adapters are found through their `_manifest.json` (`plugin_type = "adapter"`).
 */
export interface AdapterMetadata {
  /** Which decorator recorded it; the signature's middle part. */
  kind: 'adapter';
  /** The component's name, the signature's last part. */
  name: string;
  /** Which platform it connects, for listings. */
  description: string;
}

/** A tool: an `@tool` method of a plugin class, registered as `<plugin>:tool:<name>`. */
export interface ToolMetadata {
  /** Which decorator recorded it; the signature's middle part. */
  kind: 'tool';
  /** The name the model calls the tool by. */
  name: string;
  /** When the model should use the tool; the model reads only this. */
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

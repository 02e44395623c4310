import type { ComponentKind } from '../signature/component-kind.js';

/**
 * Maps each event name to its params. The layer that defines an event adds it here by
 * declaration merging, so `publishEvent` and handlers on known events are typed:
 *
 * ```ts
 * declare module 'moonglass' {
 *   interface EventPayloads {
 *     'my_plugin:thing_happened': { stream_id: string; count: number };
 *   }
 * }
 * ```
 *
 * Events not in the map still work; their params are `Record<string, unknown>`.
 */
export interface EventPayloads {
  on_start: OnStartPayload;
  on_stop: OnStopPayload;
  on_all_plugin_loaded: OnAllPluginLoadedPayload;
  on_plugin_unloaded: OnPluginUnloadedPayload;
  on_component_loaded: ComponentLifecyclePayload;
  on_component_unloaded: ComponentLifecyclePayload;
}

export interface OnStartPayload {
  /** Epoch milliseconds at which the host finished starting. */
  started_at: number;
}

export interface OnStopPayload {
  /** Why the host stops, e.g. `SIGINT` or `stop()`. */
  reason: string;
}

export interface OnAllPluginLoadedPayload {
  /** Ids of the plugins that loaded, in load order. */
  plugins: string[];
}

export interface OnPluginUnloadedPayload {
  plugin_id: string;
}

export interface ComponentLifecyclePayload {
  signature: string;
  plugin_id: string;
  kind: ComponentKind;
}

/** Any event name: a known one (typed) or any other string. */
export type EventName = Extract<keyof EventPayloads, string> | (string & {});

/** The params of event `E`: its declared payload, or a plain record for unknown names. */
export type EventParams<E extends string> = E extends keyof EventPayloads ? EventPayloads[E] : Record<string, unknown>;

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
  /** The host finished starting: plugins loaded and pending streams restored. */
  on_start: OnStartPayload;
  /** The host is stopping; published before plugins unload. */
  on_stop: OnStopPayload;
  /** Every plugin of this start has loaded (not published when the start was aborted). */
  on_all_plugin_loaded: OnAllPluginLoadedPayload;
  /** A plugin was unloaded, after its components' `on_component_unloaded`. */
  on_plugin_unloaded: OnPluginUnloadedPayload;
  /** A plugin's component was registered. */
  on_component_loaded: ComponentLifecyclePayload;
  /** A plugin's component was removed as its plugin unloaded. */
  on_component_unloaded: ComponentLifecyclePayload;
}

/** `on_start`: the host is running. Observation only: the host does not read what handlers return. */
export interface OnStartPayload {
  /** Epoch milliseconds at which the host finished starting. */
  started_at: number;
}

/** `on_stop`: the host is about to stop. Observation only. */
export interface OnStopPayload {
  /** Why the host stops, e.g. `SIGINT` or `stop()`. */
  reason: string;
}

/** `on_all_plugin_loaded`: published once per start after every plugin loaded. Observation only. */
export interface OnAllPluginLoadedPayload {
  /** Ids of the plugins that loaded, in load order. */
  plugins: string[];
}

/** `on_plugin_unloaded`: a plugin's `onUnload` ran and its scope was disposed. Observation only. */
export interface OnPluginUnloadedPayload {
  /** The id of the plugin that unloaded. */
  plugin_id: string;
}

/** `on_component_loaded` / `on_component_unloaded`: one component of a plugin. Observation only. */
export interface ComponentLifecyclePayload {
  /** The component's signature, `<plugin>:<kind>:<name>`. */
  signature: string;
  /** The id of the plugin that owns the component (the signature's first part). */
  plugin_id: string;
  /** What sort of component it is (the signature's middle part): `tool`, `action`, `chatter` … */
  kind: ComponentKind;
}

/** Any event name: a known one (typed) or any other string. */
export type EventName = Extract<keyof EventPayloads, string> | (string & {});

/** The params of event `E`: its declared payload, or a plain record for unknown names. */
export type EventParams<E extends string> = E extends keyof EventPayloads ? EventPayloads[E] : Record<string, unknown>;

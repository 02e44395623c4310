/**
 * The own property of `instance` (any key, enumerable or not) that holds one of `plugins`, or
 * undefined. A component that keeps its plugin there hands the plugin, and so its config, to
 * every other plugin that gets the component; a `#private` field is invisible to them.
 */
export function exposedPluginKey(instance: object, plugins: WeakSet<object>): string | symbol | undefined {
  for (const key of Reflect.ownKeys(instance)) {
    const descriptor = Object.getOwnPropertyDescriptor(instance, key);
    const value: unknown = descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
    if (typeof value === 'object' && value !== null && plugins.has(value)) return key;
  }
  return undefined;
}

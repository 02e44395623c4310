import { dependenciesOf, type PluginManifest } from '../manifest/plugin-manifest.js';
import { orderByDependencies } from './order-by-dependencies.js';

/**
 * The plugins that follow `id` when it loads, fails or is switched off at run time, in
 * dependency order: those that declare it (optional or not), then those that declare one of
 * them, and so on, through plugins that `follows` accepts (say, the loaded ones and the ones
 * skipped for a dependency). A plugin that `follows` refuses is left out, and so are the
 * plugins that reach `id` only through it.
 */
export function dependentsToFollow<T extends { manifest: PluginManifest }>(id: string, plugins: readonly T[], follows: (plugin: T) => boolean): T[] {
  const reached = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const plugin of plugins) {
      if (reached.has(plugin.manifest.id) || !follows(plugin)) continue;
      if (!dependenciesOf(plugin.manifest).some((dependency) => reached.has(dependency.id))) continue;
      reached.add(plugin.manifest.id);
      grew = true;
    }
  }
  reached.delete(id);
  return orderByDependencies(plugins.filter((plugin) => reached.has(plugin.manifest.id))).ordered;
}

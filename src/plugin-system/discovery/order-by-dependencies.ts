import semver from 'semver';
import { dependenciesOf, type PluginManifest } from '../manifest/plugin-manifest.js';

export interface DependencyOrder<T> {
  /** Every plugin, dependencies before their dependents; otherwise in the order given (scan order). */
  ordered: T[];
  /** Plugins that cannot load, by id, with the reason (a missing or out-of-range dependency, a cycle, a skipped dependency). */
  problems: Map<string, string>;
}

/**
 * Orders discovered plugins by their manifests' `dependencies` and says which cannot load,
 * from the manifests alone (before any plugin code runs):
 * - a required dependency that was not found, or whose version is outside the range;
 * - every member of a cycle (named in order), and only those;
 * - a plugin whose required dependency cannot load, cascading.
 * Optional dependencies order the load when present and are otherwise ignored.
 */
export function orderByDependencies<T extends { manifest: PluginManifest }>(plugins: readonly T[]): DependencyOrder<T> {
  const byId = new Map(plugins.map((plugin) => [plugin.manifest.id, plugin]));
  const problems = new Map<string, string>();
  const edges = new Map<string, string[]>(); // id -> the present dependencies it waits for
  for (const plugin of plugins) {
    const { id } = plugin.manifest;
    const waits: string[] = [];
    for (const dependency of dependenciesOf(plugin.manifest)) {
      const found = byId.get(dependency.id);
      if (found === undefined) {
        if (!dependency.optional) problems.set(id, `依赖插件 ${dependency.id} 未找到（需要 ${dependency.range}）`);
        continue;
      }
      if (!semver.satisfies(found.manifest.version, dependency.range, { includePrerelease: true })) {
        if (!dependency.optional) problems.set(id, `依赖插件 ${dependency.id} 的版本 ${found.manifest.version} 不满足 ${dependency.range}`);
        continue;
      }
      waits.push(dependency.id);
    }
    edges.set(id, waits);
  }
  for (const cycle of findCycles(plugins.map((plugin) => plugin.manifest.id), edges)) {
    for (const member of cycle) problems.set(member, `依赖成环：${[...cycle, cycle[0]].join(' → ')}`);
  }
  // Kahn's algorithm, always taking the earliest plugin in scan order that is ready.
  const ordered: T[] = [];
  const placed = new Set<string>();
  const pending = [...plugins];
  while (pending.length > 0) {
    const index = pending.findIndex((plugin) => (edges.get(plugin.manifest.id) ?? []).every((dependency) => placed.has(dependency) || problems.has(plugin.manifest.id)));
    const next = pending.splice(index >= 0 ? index : 0, 1)[0]!;
    ordered.push(next);
    placed.add(next.manifest.id);
  }
  // Cascade: a plugin waiting for one that cannot load cannot load either.
  for (const plugin of ordered) {
    const { id } = plugin.manifest;
    if (problems.has(id)) continue;
    const blocked = dependenciesOf(plugin.manifest).find((dependency) => !dependency.optional && problems.has(dependency.id));
    if (blocked !== undefined) problems.set(id, `依赖插件 ${blocked.id} 无法加载：${problems.get(blocked.id)}`);
  }
  return { ordered, problems };
}

/** Strongly connected components with more than one member, or a member that waits for itself (Tarjan). */
function findCycles(ids: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (id: string): void => {
    index.set(id, counter);
    low.set(id, counter);
    counter += 1;
    stack.push(id);
    onStack.add(id);
    for (const next of edges.get(id) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(id, Math.min(low.get(id)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(id, Math.min(low.get(id)!, index.get(next)!));
      }
    }
    if (low.get(id) !== index.get(id)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
      if (member === id) break;
    }
    if (component.length > 1 || (edges.get(id) ?? []).includes(id)) cycles.push(component.reverse());
  };
  for (const id of ids) if (!index.has(id)) visit(id);
  return cycles;
}

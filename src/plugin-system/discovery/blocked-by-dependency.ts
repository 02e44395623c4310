import { dependenciesOf, type PluginManifest } from '../manifest/plugin-manifest.js';
import type { PluginStatus } from './plugin-status.js';

/**
 * Why a plugin cannot load now: the first required dependency that is not `ready`, named
 * with what became of it (not found, switched off, failed and why); undefined when all are.
 */
export function blockedByDependency(manifest: PluginManifest, statuses: readonly PluginStatus[], ready: (id: string) => boolean): string | undefined {
  for (const dependency of dependenciesOf(manifest)) {
    if (dependency.optional || ready(dependency.id)) continue;
    const status = statuses.find((entry) => entry.id === dependency.id);
    const how = status === undefined ? '未找到' : status.state === 'disabled' ? '已关闭' : `未能加载（${status.state}${status.reason === undefined ? '' : `：${status.reason}`}）`;
    return `依赖插件 ${dependency.id} ${how}`;
  }
  return undefined;
}

import { compareVersions, type PluginManifest } from './plugin-manifest.js';

/** What the host decides from a plugin's host_application range, before any plugin code runs. */
export type HostCompatibility =
  | { readonly verdict: 'compatible' }
  /** Only the patch is above max_version (same major.minor): loads, with one notice per process. */
  | { readonly verdict: 'patch_above_max'; readonly notice: string }
  /** Skipped, unless `force_compatibility` is on (then loaded with a warning). */
  | { readonly verdict: 'incompatible'; readonly reason: string };

function majorMinor(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

/**
 * Compares the host version with the manifest's closed interval. Built-in plugins ship with
 * the host and may omit the range; a third-party plugin without one is incompatible.
 */
export function checkHostCompatibility(manifest: PluginManifest, hostVersion: string, builtIn: boolean): HostCompatibility {
  const range = manifest.host_application;
  if (range === undefined) {
    return builtIn
      ? { verdict: 'compatible' }
      : { verdict: 'incompatible', reason: '第三方插件缺少 host_application 版本区间 (third-party plugins must declare min_version and max_version)' };
  }
  const mismatch = `插件与宿主版本不匹配：当前宿主 ${hostVersion}，要求 min_version=${range.min_version}，max_version=${range.max_version}`;
  if (compareVersions(hostVersion, range.min_version) < 0) return { verdict: 'incompatible', reason: mismatch };
  if (compareVersions(hostVersion, range.max_version) <= 0) return { verdict: 'compatible' };
  if (majorMinor(hostVersion) === majorMinor(range.max_version)) {
    return {
      verdict: 'patch_above_max',
      notice: `${mismatch}；仅补丁号超出上界，按兼容模式加载 (only the patch is above max_version: loading in compatibility mode)`,
    };
  }
  return { verdict: 'incompatible', reason: mismatch };
}

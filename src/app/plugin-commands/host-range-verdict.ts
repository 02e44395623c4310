import semver from 'semver';
import { checkHostCompatibility } from '../../plugin-system/manifest/host-compatibility.js';
import type { PluginManifest } from '../../plugin-system/manifest/plugin-manifest.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether a published plugin version says it runs on this host, read from its version
 * document in the registry (its package.json as published): a `moonglass.host_application`
 * range is judged exactly as the loader judges `_manifest.json`; otherwise its
 * `peerDependencies.moonglass` semver range. The registry does not serve `_manifest.json`
 * itself, so a package with neither is "unknown until installed".
 */
export function hostRangeVerdict(versionDocument: unknown, hostVersion: string): string {
  if (!isRecord(versionDocument)) return 'unknown until installed';
  const moonglass = versionDocument['moonglass'];
  const range = isRecord(moonglass) ? moonglass['host_application'] : undefined;
  if (isRecord(range) && typeof range['min_version'] === 'string' && typeof range['max_version'] === 'string') {
    const verdict = checkHostCompatibility({ host_application: range } as unknown as PluginManifest, hostVersion, false).verdict;
    const shown = `host_application ${range['min_version']}..${range['max_version']}`;
    return verdict === 'incompatible' ? `incompatible with moonglass ${hostVersion} (${shown})` : `compatible (${shown})`;
  }
  const peers = versionDocument['peerDependencies'];
  const peer = isRecord(peers) ? peers['moonglass'] : undefined;
  if (typeof peer === 'string' && semver.validRange(peer) !== null) {
    return semver.satisfies(hostVersion, peer, { includePrerelease: true })
      ? `compatible (peerDependencies moonglass ${peer})`
      : `incompatible with moonglass ${hostVersion} (peerDependencies moonglass ${peer})`;
  }
  return 'unknown until installed';
}

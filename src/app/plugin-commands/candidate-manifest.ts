import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLUGIN_PACKAGE_KEYWORD } from '../../plugin-system/discovery/plugin-packages.js';
import { checkHostCompatibility } from '../../plugin-system/manifest/host-compatibility.js';
import type { PluginManifest } from '../../plugin-system/manifest/plugin-manifest.js';
import { MANIFEST_FILE_NAME, readPluginManifest } from '../../plugin-system/manifest/read-plugin-manifest.js';
import { npmFailure, registryArgs } from './npm-error-line.js';
import { readTarballFile } from './read-tarball-file.js';
import type { VersionDocument } from './registry-versions.js';
import { runNpm } from './run-npm.js';

/** Whether one published version may be installed on this host, judged before installing. */
export type CandidateVerdict = { fits: true; manifest: PluginManifest; notice?: string } | { fits: false; reason: string };

/**
 * Downloads the tarball of `document`'s version through npm (its cache, registry, proxy and
 * credentials) and judges it as the loader would: a `moonglass-plugin` package with a valid
 * `_manifest.json` at its root whose `host_application` range includes `hostVersion`. The
 * registry serves package.json fields but not `_manifest.json`, so the tarball is read.
 */
export async function judgeCandidate(document: VersionDocument, hostVersion: string, registry: string | undefined, cwd?: string): Promise<CandidateVerdict> {
  const label = `${document.name}@${document.version}`;
  if (!Array.isArray(document.keywords) || !document.keywords.includes(PLUGIN_PACKAGE_KEYWORD)) {
    return { fits: false, reason: `${label} is not a moonglass plugin package: its package.json has no "${PLUGIN_PACKAGE_KEYWORD}" keyword` };
  }
  const scratch = mkdtempSync(join(tmpdir(), 'moonglass-candidate-'));
  try {
    const pack = await runNpm(['pack', label, '--json', '--pack-destination', scratch, ...registryArgs(registry)], 120_000, cwd);
    if (pack.code !== 0) return { fits: false, reason: `could not download ${label}: ${npmFailure(pack.stdout, pack.stderr).line}` };
    const [packed] = JSON.parse(pack.stdout) as { filename: string }[];
    const manifestText = readTarballFile(readFileSync(join(scratch, packed!.filename)), `package/${MANIFEST_FILE_NAME}`);
    if (manifestText === undefined) return { fits: false, reason: `${label} has no ${MANIFEST_FILE_NAME} at its root, so the host would not load it` };
    const folder = join(scratch, 'package');
    mkdirSync(folder);
    writeFileSync(join(folder, MANIFEST_FILE_NAME), manifestText);
    let manifest: PluginManifest;
    try {
      manifest = readPluginManifest(folder);
    } catch (error) {
      return { fits: false, reason: `${label} has a ${MANIFEST_FILE_NAME} the host refuses: ${(error as Error).message.replaceAll(folder, label)}` };
    }
    const compatibility = checkHostCompatibility(manifest, hostVersion, false);
    if (compatibility.verdict === 'incompatible') {
      const range = manifest.host_application;
      return {
        fits: false,
        reason:
          range === undefined
            ? `${label} declares no host_application range in its ${MANIFEST_FILE_NAME}`
            : `${label} needs moonglass ${range.min_version} to ${range.max_version} (host_application in its ${MANIFEST_FILE_NAME}); this host is ${hostVersion}`,
      };
    }
    return compatibility.verdict === 'patch_above_max' ? { fits: true, manifest, notice: compatibility.notice } : { fits: true, manifest };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

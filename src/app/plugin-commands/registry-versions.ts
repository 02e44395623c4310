import semver from 'semver';
import { NO_RETRIES, npmFailure, registryArgs } from './npm-error-line.js';
import { runNpm } from './run-npm.js';

/** One published version's document (its package.json as the registry serves it). */
export interface VersionDocument {
  name: string;
  version: string;
  keywords?: unknown;
  peerDependencies?: Record<string, string>;
  moonglass?: unknown;
  'dist-tags'?: Record<string, string>;
}

/** The registry said no: no such package, no matching version, or it could not be reached. */
export class RegistryLookupError extends Error {
  override readonly name = 'RegistryLookupError';
}

/**
 * The documents of every published version of `name` that `range` (a semver range or a
 * dist-tag; default `latest`) selects, newest first, through `npm view --json`. Throws
 * `RegistryLookupError` with one line when there is none or the registry cannot be asked.
 */
export async function viewVersions(name: string, range: string | undefined, registry: string | undefined, cwd?: string): Promise<VersionDocument[]> {
  const spec = `${name}@${range ?? 'latest'}`;
  const view = await runNpm(['view', '--json', ...NO_RETRIES, ...registryArgs(registry), spec], 60_000, cwd);
  if (view.code !== 0) {
    const { code, line } = npmFailure(view.stdout, view.stderr);
    if (code === 'E404' && /no match found for version/i.test(line)) throw new RegistryLookupError(`no published version of ${name} matches ${range}`);
    if (code === 'E404') throw new RegistryLookupError(`the registry has no package named ${name}`);
    throw new RegistryLookupError(`could not ask the registry about ${spec}: ${line}`);
  }
  const parsed = JSON.parse(view.stdout.trim() === '' ? '[]' : view.stdout) as VersionDocument | VersionDocument[];
  const documents = (Array.isArray(parsed) ? parsed : [parsed]).filter((document) => typeof document?.version === 'string');
  if (documents.length === 0) throw new RegistryLookupError(`no published version of ${name} matches ${range ?? 'latest'}`);
  return documents.sort((a, b) => semver.rcompare(a.version, b.version));
}

/**
 * The version npm installs for `range` among `documents`: the `latest` tag when the range
 * includes it, else the highest the range includes (as npm's own picker does).
 */
export function versionNpmPicks(documents: readonly VersionDocument[], range: string | undefined): VersionDocument {
  const latest = documents[0]?.['dist-tags']?.['latest'];
  const tagged = latest === undefined ? undefined : documents.find((document) => document.version === latest);
  if (tagged !== undefined && (range === undefined || semver.validRange(range) === null || semver.satisfies(latest!, range))) return tagged;
  return documents[0]!;
}

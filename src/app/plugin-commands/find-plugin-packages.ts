import { PLUGIN_PACKAGE_KEYWORD } from '../../plugin-system/discovery/plugin-packages.js';
import { HOST_VERSION } from '../host-version.js';
import { hostRangeVerdict } from './host-range-verdict.js';
import { NO_RETRIES, npmFailure, registryArgs } from './npm-error-line.js';
import { runNpm } from './run-npm.js';

/** One plugin package the registry has, as search shows it. */
export interface FoundPluginPackage {
  name: string;
  version: string;
  description: string;
  /** One line: `compatible (host_application 0.1.0..0.1.99)`, `incompatible with moonglass 0.1.0 (…)`, `unknown until installed`. */
  compatibility: string;
  /** `undefined` when the registry's metadata does not say (then only installing tells). */
  compatible: boolean | undefined;
}

/** npm could not search the registry (unreachable, refused, not a registry). */
export class RegistryUnreachableError extends Error {
  override readonly name = 'RegistryUnreachableError';
  constructor(
    readonly registry: string,
    reason: string,
  ) {
    super(`could not search the registry ${registry}: ${reason}`);
  }
}

interface SearchHit {
  name: string;
  /** Some registries (Verdaccio) leave it out: then the latest version is viewed. */
  version?: string;
  description?: string;
  keywords?: unknown;
}

async function npmSearch(terms: readonly string[], registry: string | undefined): Promise<SearchHit[]> {
  const search = await runNpm(['search', '--json', ...NO_RETRIES, ...registryArgs(registry), ...terms]);
  if (search.code !== 0) throw new Error(npmFailure(search.stdout, search.stderr).line);
  const hits = JSON.parse(search.stdout.trim() === '' ? '[]' : search.stdout) as unknown;
  if (!Array.isArray(hits)) throw new Error(`npm search printed no list: ${search.stdout.slice(0, 200)}`);
  return hits as SearchHit[];
}

/** The registry npm uses here: the one given, else npm's configured one. */
export async function effectiveRegistry(registry: string | undefined, cwd?: string): Promise<string> {
  return registry ?? ((await runNpm(['config', 'get', 'registry'], 60_000, cwd)).stdout.trim() || "npm's configured registry");
}

async function describeHit(hit: SearchHit, registry: string | undefined): Promise<FoundPluginPackage> {
  const view = await runNpm(['view', '--json', ...NO_RETRIES, ...registryArgs(registry), hit.version === undefined ? hit.name : `${hit.name}@${hit.version}`]);
  let document: unknown;
  try {
    document = view.code === 0 ? (JSON.parse(view.stdout) as unknown) : undefined;
  } catch {
    document = undefined;
  }
  const viewedVersion = typeof document === 'object' && document !== null ? (document as { version?: unknown }).version : undefined;
  const compatibility = hostRangeVerdict(document, HOST_VERSION);
  return {
    name: hit.name,
    version: hit.version ?? (typeof viewedVersion === 'string' ? viewedVersion : '(version unknown)'),
    description: (hit.description ?? '').split('\n').join(' '),
    compatibility,
    compatible: compatibility.startsWith('compatible') ? true : compatibility.startsWith('incompatible') ? false : undefined,
  };
}

/**
 * The `moonglass-plugin` packages matching `words`: `npm search --json <words>
 * keywords:moonglass-plugin` through the person's npm (their registry or mirror; `registry`
 * passed through), then each hit's version document (`npm view`) for its host range. Throws
 * `RegistryUnreachableError` when the registry cannot be searched.
 */
export async function findPluginPackages(words: readonly string[], registry?: string): Promise<{ registry: string; packages: FoundPluginPackage[] }> {
  const shownRegistry = await effectiveRegistry(registry);
  let hits: SearchHit[];
  try {
    hits = await npmSearch([...words, `keywords:${PLUGIN_PACKAGE_KEYWORD}`], registry);
    // A registry that does not know the keywords: qualifier (Verdaccio, some mirrors) finds
    // nothing with it; then the words alone, keeping the packages that carry the keyword.
    if (hits.length === 0) hits = (await npmSearch(words, registry)).filter((hit) => Array.isArray(hit.keywords) && hit.keywords.includes(PLUGIN_PACKAGE_KEYWORD));
  } catch (error) {
    throw new RegistryUnreachableError(shownRegistry, (error as Error).message);
  }
  const packages = await Promise.all(hits.map((hit) => describeHit(hit, registry)));
  return { registry: shownRegistry, packages };
}

import { PLUGIN_PACKAGE_KEYWORD } from '../../plugin-system/discovery/plugin-packages.js';
import { HOST_VERSION } from '../host-version.js';
import { hostRangeVerdict } from './host-range-verdict.js';
import { runNpm } from './run-npm.js';

export interface SearchPluginsOptions {
  words: readonly string[];
  /** `--registry` as given; otherwise npm's own configured registry. */
  registry: string | undefined;
  out: (line: string) => void;
  err: (line: string) => void;
}

interface SearchHit {
  name: string;
  /** Some registries (Verdaccio) leave it out: then the latest version is viewed. */
  version?: string;
  description?: string;
  keywords?: unknown;
}

/** npm's error, in one line: its `npm error` lines without the log-file hints. */
function npmErrorLine(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.replace(/^npm (error|ERR!) ?/, '').trim());
  const useful = lines.filter((line) => line !== '' && !/complete log of this run|A complete log|^\/.*debug-\d+\.log$/.test(line));
  // npm's `code X` / `syscall X` / `errno X` lines only repeat what its message says.
  const message = useful.filter((line) => !/^(code|syscall|errno) \S+$/.test(line));
  return (message.length > 0 ? message : useful).slice(0, 1).join(' ') || 'npm exited without saying why';
}

// One try per request: an unreachable registry is reported at once, not after npm's retries.
const NO_RETRIES = ['--fetch-retries=0'];

async function npmSearch(terms: readonly string[], registryArgs: readonly string[]): Promise<SearchHit[]> {
  const search = await runNpm(['search', '--json', ...NO_RETRIES, ...registryArgs, ...terms]);
  if (search.code !== 0) throw new Error(npmErrorLine(search.stderr));
  const hits = JSON.parse(search.stdout.trim() === '' ? '[]' : search.stdout) as unknown;
  if (!Array.isArray(hits)) throw new Error(`npm search printed no list: ${search.stdout.slice(0, 200)}`);
  return hits as SearchHit[];
}

/**
 * `moonglass plugin search <words>`: `npm search --json <words> keywords:moonglass-plugin`
 * through the person's npm (their registry or mirror; `--registry` passed through), then each
 * hit's version document (`npm view <name>@<version> --json`) for its host range. Exit 1 with
 * one line naming the registry when it cannot be searched.
 */
export async function searchPlugins(options: SearchPluginsOptions): Promise<number> {
  const registryArgs = options.registry === undefined ? [] : ['--registry', options.registry];
  const registry = options.registry ?? ((await runNpm(['config', 'get', 'registry'])).stdout.trim() || 'npm\'s configured registry');
  let plugins: SearchHit[];
  try {
    plugins = await npmSearch([...options.words, `keywords:${PLUGIN_PACKAGE_KEYWORD}`], registryArgs);
    // A registry that does not know the keywords: qualifier (Verdaccio, some mirrors) finds
    // nothing with it; then the words alone, keeping the packages that carry the keyword.
    if (plugins.length === 0) plugins = (await npmSearch(options.words, registryArgs)).filter((hit) => Array.isArray(hit.keywords) && hit.keywords.includes(PLUGIN_PACKAGE_KEYWORD));
  } catch (error) {
    options.err(`moonglass plugin search: could not search the registry ${registry}: ${(error as Error).message}`);
    return 1;
  }
  if (plugins.length === 0) {
    options.out(`no ${PLUGIN_PACKAGE_KEYWORD} packages match "${options.words.join(' ')}" in ${registry}`);
    return 0;
  }
  for (const hit of plugins) {
    const view = await runNpm(['view', '--json', ...NO_RETRIES, ...registryArgs, hit.version === undefined ? hit.name : `${hit.name}@${hit.version}`]);
    let document: unknown;
    try {
      document = view.code === 0 ? (JSON.parse(view.stdout) as unknown) : undefined;
    } catch {
      document = undefined;
    }
    const viewedVersion = typeof document === 'object' && document !== null ? (document as { version?: unknown }).version : undefined;
    const version = hit.version ?? (typeof viewedVersion === 'string' ? viewedVersion : '(version unknown)');
    options.out(`${hit.name} ${version}  ${hostRangeVerdict(document, HOST_VERSION)}  ${(hit.description ?? '').split('\n').join(' ')}`.trimEnd());
  }
  return 0;
}

import { PLUGIN_PACKAGE_KEYWORD } from '../../plugin-system/discovery/plugin-packages.js';
import { findPluginPackages, RegistryUnreachableError } from './find-plugin-packages.js';

export interface SearchPluginsOptions {
  words: readonly string[];
  /** `--registry` as given; otherwise npm's own configured registry. */
  registry: string | undefined;
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * `moonglass plugin search <words>`: one line per matching plugin package (name, version,
 * whether its host range includes this host, description). Exit 1 with one line naming the
 * registry when it cannot be searched.
 */
export async function searchPlugins(options: SearchPluginsOptions): Promise<number> {
  let found;
  try {
    found = await findPluginPackages(options.words, options.registry);
  } catch (error) {
    if (!(error instanceof RegistryUnreachableError)) throw error;
    options.err(`moonglass plugin search: ${error.message}`);
    return 1;
  }
  if (found.packages.length === 0) {
    options.out(`no ${PLUGIN_PACKAGE_KEYWORD} packages match "${options.words.join(' ')}" in ${found.registry}`);
    return 0;
  }
  for (const plugin of found.packages) options.out(`${plugin.name} ${plugin.version}  ${plugin.compatibility}  ${plugin.description}`.trimEnd());
  return 0;
}

import { cpSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { defaultPluginRoots } from '../app/create-host.js';

/** Copies a plugin folder to `<into>/<its name>`, leaving out any generated `config.toml`. */
export function copyPluginFolder(folder: string, into: string): void {
  cpSync(folder, join(into, basename(folder)), { recursive: true, filter: (path) => basename(path) !== 'config.toml' });
}

/**
 * Copies moonglass's built-in plugins into `into` (for `MOONGLASS_BUILT_IN_PLUGINS` or a test
 * host's plugin root): the built-ins write their config.toml beside their code, and a copy
 * keeps the checkout untouched. Returns `into`.
 */
export function copyBuiltInPlugins(into: string): string {
  const builtIn = defaultPluginRoots()[0]!.path;
  for (const name of readdirSync(builtIn)) copyPluginFolder(join(builtIn, name), into);
  return into;
}

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginRoot } from '../plugin-system/discovery/plugin-root.js';

/**
 * Names another folder of built-in plugins. The built-ins write their config.toml beside
 * their code (in a checkout; inside node_modules it goes to config/plugins/<id>.toml); tests
 * that run the real CLI point this at a scratch copy so that a checkout's own folders are
 * never written.
 */
export const BUILT_IN_PLUGINS_ENV = 'MOONGLASS_BUILT_IN_PLUGINS';

/**
 * The standard roots, in scan order: `src/plugins/built_in/` (or `$MOONGLASS_BUILT_IN_PLUGINS`),
 * then `plugins/` under the project folder (default: the working folder), then the plugin packages its
 * package.json depends on (see `pluginPackageFolders`). The first plugin found with an id wins.
 */
export function defaultPluginRoots(projectDir = '.'): PluginRoot[] {
  const builtIn = process.env[BUILT_IN_PLUGINS_ENV];
  return [
    { path: builtIn === undefined || builtIn === '' ? fileURLToPath(new URL('../plugins/built_in/', import.meta.url)) : resolve(builtIn), builtIn: true },
    { path: resolve(projectDir, 'plugins'), builtIn: false },
    { path: resolve(projectDir), builtIn: false, packages: true },
  ];
}

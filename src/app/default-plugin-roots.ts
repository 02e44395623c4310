import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginRoot } from '../plugin-system/discovery/plugin-root.js';

/**
 * Names another folder of built-in plugins. The built-ins write their config.toml beside
 * their code; tests that run the real CLI point this at a scratch copy so that a checkout's
 * own folders are never written.
 */
export const BUILT_IN_PLUGINS_ENV = 'MOONGLASS_BUILT_IN_PLUGINS';

/** The standard roots: `src/plugins/built_in/` (or `$MOONGLASS_BUILT_IN_PLUGINS`) first, then `./plugins` under the working folder. */
export function defaultPluginRoots(): PluginRoot[] {
  const builtIn = process.env[BUILT_IN_PLUGINS_ENV];
  return [
    { path: builtIn === undefined || builtIn === '' ? fileURLToPath(new URL('../plugins/built_in/', import.meta.url)) : resolve(builtIn), builtIn: true },
    { path: resolve('plugins'), builtIn: false },
  ];
}

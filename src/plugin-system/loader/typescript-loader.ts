// Plugins may be TypeScript (`plugin.ts`) with no build step. Run from the sources, the host
// already runs under tsx (`npm start`) or vite (the tests), which compile them. Run from the
// compiled package (dist/, a bot project's node_modules/moonglass), Node 20 cannot import a
// .ts file: the same tsx hooks as `npm start` are registered the first time one is needed.
// Only then, so the host's own JavaScript still loads through Node's plain loader: once the
// hooks exist, every module resolved costs a round trip to their thread.
let registering: Promise<unknown> | undefined;

const RUNNING_COMPILED = import.meta.url.endsWith('.js');

// Imports of JavaScript entries (the built-in plugins) already under way: the hooks are
// registered after they finish, so that their module graphs need no round trips.
const javaScriptImports = new Set<Promise<unknown>>();

function isTypeScript(file: string): boolean {
  return /\.[cm]?ts$/.test(file);
}

/**
 * Imports a plugin's entry module. For a .ts file in a compiled host, the TypeScript loader
 * is registered first (once per process).
 */
export async function importEntryModule(file: string, url: string): Promise<unknown> {
  if (!RUNNING_COMPILED) return import(url);
  if (!isTypeScript(file)) {
    const imported = import(url);
    javaScriptImports.add(imported);
    void imported.finally(() => javaScriptImports.delete(imported)).catch(() => undefined);
    return imported;
  }
  registering ??= Promise.allSettled([...javaScriptImports]).then(
    // dist/register-typescript.mjs, copied beside the compiled host by scripts/copy-plugin-assets.mjs.
    () => import(new URL('../../register-typescript.mjs', import.meta.url).href),
  );
  await registering;
  return import(url);
}

// Plugins may be TypeScript (`plugin.ts`) with no build step. Run from the sources, the host
// already runs under tsx (`npm start`) or vite (the tests), which compile them. Run from the
// compiled package (dist/, a bot project's node_modules/moonglass), Node 20 cannot import a
// .ts file: the same tsx hooks as `npm start` are registered the first time one is needed.
// Only then, so the host's own JavaScript still loads through Node's plain loader (fast).
let registering: Promise<unknown> | undefined;

const RUNNING_COMPILED = import.meta.url.endsWith('.js');

/** Makes `import()` of a .ts file work in this process (a no-op when it already does). */
export function ensureTypeScriptLoader(file: string): Promise<unknown> | undefined {
  if (!RUNNING_COMPILED || !/\.[cm]?ts$/.test(file)) return undefined;
  // dist/register-typescript.mjs, copied beside the compiled host by scripts/copy-plugin-assets.mjs.
  registering ??= import(new URL('../../register-typescript.mjs', import.meta.url).href);
  return registering;
}

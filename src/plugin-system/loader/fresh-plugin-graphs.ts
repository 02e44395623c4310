import { register } from 'node:module';

// fresh-plugin-graphs-hook.ts from the sources (`npm start` and the tests run under tsx,
// whose hooks also load hook modules), its compiled .js in dist/.
const HOOK = new URL(`./fresh-plugin-graphs-hook${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

let registered = false;

/**
 * From now on, every (re)import of a plugin entry also imports afresh the files it imports
 * from its own folder (see fresh-plugin-graphs-hook.ts), not only the entry. For watch mode
 * only: with the hook, every module resolved in the process costs a round trip to the
 * loader thread. Idempotent.
 */
export function enableFreshPluginGraphs(): void {
  if (registered) return;
  registered = true;
  register(HOOK.href);
}

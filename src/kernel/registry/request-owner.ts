import type { BindingConstraints, ServiceIdentifier } from 'inversify';

/**
 * Who bound an identifier in the registry: the id of the plugin whose scope registered (or
 * overrode) it, `null` for the host, `undefined` when the registry did not bind it.
 */
export type BindingOwner = string | null;

/**
 * The plugin id that owns the nearest registry binding in the resolution chain, so
 * `TOKENS.Plugin` and `TOKENS.Logger` resolve to the plugin whose scope bound the class being
 * built. The owner comes from the scope, never from a signature's prefix: an override that
 * plugin `q` binds under `p:service:x` is `q`'s. `undefined` for a host binding or none.
 */
export function requestOwner(constraints: BindingConstraints, ownerOf: (identifier: ServiceIdentifier) => BindingOwner | undefined): string | undefined {
  for (let ancestor = constraints.getAncestor(); ancestor !== undefined; ancestor = ancestor.getAncestor()) {
    const owner = ownerOf(ancestor.serviceIdentifier);
    if (owner !== undefined) return owner ?? undefined;
  }
  return undefined;
}

import type { BindingConstraints } from 'inversify';

/**
 * The plugin id of the nearest component (a signature-bound service) in the resolution
 * chain, so `TOKENS.Plugin` and `TOKENS.Logger` resolve to the plugin that owns the component
 * being built. `undefined` when nothing in the chain is a component.
 */
export function requestOwner(constraints: BindingConstraints): string | undefined {
  for (let ancestor = constraints.getAncestor(); ancestor !== undefined; ancestor = ancestor.getAncestor()) {
    const identifier = ancestor.serviceIdentifier;
    if (typeof identifier !== 'string') continue;
    const first = identifier.indexOf(':');
    if (first > 0 && identifier.indexOf(':', first + 1) > first) return identifier.slice(0, first);
  }
  return undefined;
}

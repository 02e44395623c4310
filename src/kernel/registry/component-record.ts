import type { ComponentClass, ComponentMetadata } from '../components/component-metadata.js';
import type { ComponentKind } from '../signature/component-kind.js';
import type { Signature } from '../signature/parse-signature.js';

/** One registered component, as listings show it. */
export interface ComponentRecord {
  signature: Signature;
  kind: ComponentKind;
  name: string;
  pluginId: string;
  componentClass: ComponentClass;
  metadata: ComponentMetadata;
}

/** Filters for `ComponentRegistry.list`. */
export interface ComponentFilter {
  kind?: ComponentKind;
  pluginId?: string;
}

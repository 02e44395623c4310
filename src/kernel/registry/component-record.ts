import type { ComponentClass, ComponentMetadata } from '../components/component-metadata.js';
import type { ComponentKind } from '../signature/component-kind.js';
import type { Signature } from '../signature/parse-signature.js';

/** One registered component, as listings show it. */
export interface ComponentRecord {
  /** `<plugin>:<kind>:<name>`, the component's unique key. */
  signature: Signature;
  /** The component's kind (the signature's middle part). */
  kind: ComponentKind;
  /** The component's name (the signature's last part). */
  name: string;
  /** The plugin that registered it (the signature's first part). */
  pluginId: string;
  /** The decorated class the container builds the component from; for a tool, the plugin class that declares it. */
  componentClass: ComponentClass;
  /** What the component's decorator recorded. */
  metadata: ComponentMetadata;
}

/** Filters for `ComponentRegistry.list`. */
export interface ComponentFilter {
  /** Only components of this kind. */
  kind?: ComponentKind;
  /** Only components of this plugin. */
  pluginId?: string;
}

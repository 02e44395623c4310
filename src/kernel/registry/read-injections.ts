import { getClassMetadata } from '@inversifyjs/core';
import { LazyServiceIdentifier, type ServiceIdentifier } from 'inversify';
import type { ComponentClass } from '../components/component-metadata.js';

/** One identifier a component class has the container inject. */
export interface Injection {
  /** Where it goes: `constructor argument 1` (counted from 1) or `property "cache"`. */
  place: string;
  identifier: ServiceIdentifier;
  /** Marked `@optional()`: `undefined` when nothing is bound. */
  optional: boolean;
}

/**
 * What the container would inject into `componentClass`, read from its inversify metadata
 * without building it (no constructor runs). Throws inversify's own error when a constructor
 * argument lacks its `@inject` (it would fail the same way at the first `get`).
 */
export function readInjections(componentClass: ComponentClass): Injection[] {
  const metadata = getClassMetadata(componentClass as never);
  const injections: Injection[] = [];
  const add = (place: string, element: (typeof metadata.constructorArguments)[number]): void => {
    if (!('value' in element)) return; // @unmanaged(): the container passes nothing
    const identifier = LazyServiceIdentifier.is(element.value) ? element.value.unwrap() : element.value;
    injections.push({ place, identifier, optional: element.optional });
  };
  metadata.constructorArguments.forEach((element, index) => add(`constructor argument ${index + 1}`, element));
  for (const [key, element] of metadata.properties) add(`property ${JSON.stringify(String(key))}`, element);
  return injections;
}

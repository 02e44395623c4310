import type { Container, Newable, ServiceIdentifier } from 'inversify';
import { readComponentMetadata } from '../components/component-metadata.js';
import { BindingOverrideError } from '../errors/binding-override-error.js';
import type { ComponentRecord } from './component-record.js';
import type { BindingOwner } from './request-owner.js';

/**
 * What an override binds in place of the original. `wrap` is for core tokens only: it gets
 * what is bound now (the host's default, or the override below) and returns what stands in
 * for it, so a plugin can decorate the storage or the model client instead of rebuilding it.
 */
export type OverrideTarget<T = unknown> =
  | {
      /** A class the container builds anew each time it is asked (a component's must be of the same kind). */
      useClass: Newable<T>;
    }
  | {
      /** This very value, shared by everyone who asks. */
      useValue: T;
    }
  | {
      /** A function called each time the binding is asked for. */
      useFactory: () => T;
    }
  | {
      /**
       * Core tokens only: gets what is bound now and returns the object that stands in for it
       * (called once, at override time).
       */
      wrap: (replaced: T) => T;
    };

/**
 * How to (re)create one binding, and whose it is; a stack of these per identifier makes
 * overrides undoable. `owner` is what `TOKENS.Plugin` and `TOKENS.Logger` follow.
 */
export interface Recipe {
  bind(container: Container, identifier: ServiceIdentifier): void;
  owner: BindingOwner;
  /** Set once `get` has checked an instance of this binding for an exposed plugin. */
  exposureChecked?: boolean;
}

/**
 * The recipe for `target`, after the checks that need no container: a well-formed target, and
 * for a component signature a class of the same kind. A tool is refused: the model calls
 * tools through the tool registry, never through the container, so rebinding the signature
 * would be accepted and then ignored.
 */
export function overrideRecipe<T>(
  shown: string,
  record: ComponentRecord | undefined,
  target: OverrideTarget<T>,
  owner: BindingOwner,
  replaced?: () => unknown,
): Recipe {
  if (record?.kind === 'tool') {
    throw new BindingOverrideError(
      shown,
      'a tool is called through the tool registry, not the container; register a tool of another name, or change or refuse the call in a before_tool_call handler',
    );
  }
  if (typeof target !== 'object' || target === null) throw new BindingOverrideError(shown, 'the target must have useClass, useValue, useFactory or wrap');
  if ('useClass' in target) {
    const useClass = target.useClass;
    if (typeof useClass !== 'function') throw new BindingOverrideError(shown, 'useClass must be a class');
    const kind = readComponentMetadata(useClass)?.kind;
    if (record !== undefined && kind !== undefined && kind !== record.kind) {
      throw new BindingOverrideError(shown, `it is a ${record.kind} and ${useClass.name || 'the class'} is declared as a ${kind}`);
    }
    return { owner, bind: (container, identifier) => void container.bind(identifier).to(useClass).inTransientScope() };
  }
  if ('useValue' in target) return { owner, bind: (container, identifier) => void container.bind(identifier).toConstantValue(target.useValue) };
  if ('useFactory' in target) {
    const useFactory = target.useFactory;
    if (typeof useFactory !== 'function') throw new BindingOverrideError(shown, 'useFactory must be a function');
    return { owner, bind: (container, identifier) => void container.bind(identifier).toDynamicValue(useFactory).inTransientScope() };
  }
  if ('wrap' in target) {
    const wrap = target.wrap;
    if (typeof wrap !== 'function') throw new BindingOverrideError(shown, 'wrap must be a function');
    if (replaced === undefined) throw new BindingOverrideError(shown, 'wrap is for core tokens (TOKENS.*); to change a component, override it with a class that extends it');
    let value: T;
    try {
      value = wrap(replaced() as T);
    } catch (error) {
      throw new BindingOverrideError(shown, `its wrap function threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (typeof value !== 'object' || value === null) throw new BindingOverrideError(shown, `its wrap function returned ${value === null ? 'null' : typeof value}, not an object`);
    return { owner, bind: (container, identifier) => void container.bind(identifier).toConstantValue(value) };
  }
  throw new BindingOverrideError(shown, 'the target must have useClass, useValue, useFactory or wrap');
}

import type { ComponentRegistry } from './component-registry.js';

type BoundMethods = Map<PropertyKey, { method: Function; bound: Function }>;

const boundMethods = new WeakMap<object, BoundMethods>();

/** The methods of `target` bound to it so far, shared by every stand-in that reaches it. */
function boundMethodsOf(target: object): BoundMethods {
  let methods = boundMethods.get(target);
  if (methods === undefined) boundMethods.set(target, (methods = new Map()));
  return methods;
}

/** `target[key]` bound to `target`, made once per target and method (a turn calls some thousands). */
function bindTo(methods: BoundMethods, target: object, key: PropertyKey, method: Function): Function {
  const known = methods.get(key);
  if (known !== undefined && known.method === method) return known.bound;
  const bound = method.bind(target);
  methods.set(key, { method, bound });
  return bound;
}

/**
 * A stand-in for whatever is bound to a core token *now*: every property read and method call
 * goes to the current binding, so the host's parts, handed this once at start, follow an
 * override and its undoing. Methods are bound to the real object (its `#private` fields work);
 * `instanceof` checks the current binding's class. Lifecycle calls (closing the database,
 * stopping MCP) stay on the host's own default, not on the facade.
 */
export function followCore<T extends object>(registry: ComponentRegistry, token: symbol): T;
/** A stand-in for a part of the current binding (`db => db.streamStates`), picked at each use. */
export function followCore<T extends object, V>(registry: ComponentRegistry, token: symbol, pick: (value: V) => T): T;
export function followCore<T extends object>(registry: ComponentRegistry, token: symbol, pick?: (value: unknown) => T): T {
  return follow<T>(pick === undefined ? () => registry.core<T>(token) : () => pick(registry.core(token)));
}

/** A stand-in for whatever `current()` returns at each use (see `followCore`). */
export function follow<T extends object>(current: () => T): T {
  // The binding of the last call, and its bound methods: the binding seldom changes, and this
  // spares the WeakMap lookup on every method read.
  let lastTarget: object | undefined;
  let lastMethods: BoundMethods | undefined;
  return new Proxy({} as T, {
    get(_, key) {
      const target = current();
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (target !== lastTarget || lastMethods === undefined) {
        lastMethods = boundMethodsOf(target);
        lastTarget = target;
      }
      return bindTo(lastMethods, target, key, value);
    },
    set(_, key, value) {
      return Reflect.set(current(), key, value);
    },
    has(_, key) {
      return Reflect.has(current(), key);
    },
    getPrototypeOf() {
      return Reflect.getPrototypeOf(current());
    },
    ownKeys() {
      return Reflect.ownKeys(current());
    },
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      // The proxy's own target is an empty extensible object: a property it reports must be configurable.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
  });
}

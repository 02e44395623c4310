/**
 * `base` with some properties replaced, for an override that changes part of a service
 * (`ctx.override(TOKENS.Storage, { wrap: (db) => overlay(db, { messages }) })`). Everything
 * else reads from `base`, and its methods stay bound to it, so a class with `#private` fields
 * keeps working behind the overlay.
 */
export function overlay<T extends object>(base: T, replaced: Partial<T>): T {
  return new Proxy(base, {
    get(target, key) {
      if (Object.hasOwn(replaced, key)) return (replaced as Record<PropertyKey, unknown>)[key];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    has(target, key) {
      return Object.hasOwn(replaced, key) || Reflect.has(target, key);
    },
  });
}

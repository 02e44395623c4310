type Params = Record<string, unknown>;

/** Makes the shallow copy each handler receives. */
export type ParamsCloner = (params: Params) => Params;

/**
 * A copier specialised to one key set: an object literal listing the keys, which V8 builds
 * with a fixed shape. In the bus benchmark it cost ~4 ns per copy against ~65 ns for
 * `{ ...params }`, which was a third of the bus's own cost per handler. Keys are embedded
 * as JSON string literals, so any key text is safe; `__proto__` is written as a computed
 * key so that it stays an own property, as a spread would make it.
 */
export function makeParamsCloner(keys: readonly string[]): ParamsCloner {
  const entries = keys.map((key) => {
    const literal = JSON.stringify(key);
    return key === '__proto__' ? `[${literal}]: params[${literal}]` : `${literal}: params[${literal}]`;
  });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from JSON-quoted keys only
  return new Function('params', `"use strict"; return { ${entries.join(', ')} };`) as ParamsCloner;
}

/** True when both lists hold the same keys in the same order. */
export function sameKeyList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

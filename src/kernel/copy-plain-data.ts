/** Below this depth a value is copied by `structuredClone`, which also survives cycles. */
const MAX_DEPTH = 32;

/**
 * A deep copy of plain data (arrays and plain objects of JSON-like values), for handing a
 * request's prompt and tool schemas to handlers that may edit them. Unlike `structuredClone`
 * it shares strings instead of serializing them, so copying a long prompt costs the objects
 * around its text, not the text: several times faster on the prompts a chatter builds.
 * Anything that is not plain data (a class instance, a Date, a Map, a typed array) and any
 * branch deeper than 32 levels is copied by `structuredClone`, so the result is the same.
 */
export function copyPlainData<T>(value: T): T {
  return copy(value, 0) as T;
}

function copy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return structuredClone(value);
    const result = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) result[index] = copy(value[index], depth + 1);
    return result;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const result: Record<string, unknown> = {};
  for (const key in value) {
    if (Object.hasOwn(value, key)) result[key] = copy((value as Record<string, unknown>)[key], depth + 1);
  }
  return result;
}

/** A value found while walking an object graph, with the property path that reached it. */
export interface Found {
  path: string;
  value: unknown;
}

function keyText(key: string | symbol): string {
  return typeof key === 'symbol' ? `[${key.toString()}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * Walks everything reachable from `roots` the way any code holding them could: every own
 * property (enumerable or not, string or symbol keyed) that holds a value, and the entries of
 * Maps, Sets and arrays. Getters are not called and `#private` fields are not visible, as to
 * any other code. Returns every value `matches` accepts, each with one path that reaches it.
 */
export function findReachable(roots: ReadonlyMap<string, unknown>, matches: (value: unknown) => boolean, limit = 500_000): { found: Found[]; visited: number } {
  const seen = new Set<unknown>();
  const found: Found[] = [];
  const queue: Found[] = [...roots].map(([path, value]) => ({ path, value }));
  let visited = 0;
  for (let index = 0; index < queue.length && visited < limit; index += 1) {
    const { path, value } = queue[index]!;
    if (matches(value)) {
      found.push({ path, value });
      continue;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    seen.add(value);
    visited += 1;
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) continue;
    if (value instanceof Map) {
      let entry = 0;
      for (const [key, item] of value) {
        queue.push({ path: `${path}<key ${entry}>`, value: key }, { path: `${path}.get(${typeof key === 'string' ? JSON.stringify(key) : `<key ${entry}>`})`, value: item });
        entry += 1;
      }
    } else if (value instanceof Set) {
      let entry = 0;
      for (const item of value) queue.push({ path: `${path}<item ${entry++}>`, value: item });
    }
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor !== undefined && 'value' in descriptor) queue.push({ path: `${path}${keyText(key)}`, value: descriptor.value });
    }
  }
  return { found, visited };
}

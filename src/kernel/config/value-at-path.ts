/** A TOML/JSON table: a plain object that is not an array or a date. */
export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** The value at `path` inside nested tables, or `undefined` when any step is missing. */
export function valueAt(values: unknown, path: readonly PropertyKey[]): unknown {
  let current = values;
  for (const key of path) current = isTable(current) ? current[key as string] : undefined;
  return current;
}

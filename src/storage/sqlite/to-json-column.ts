/**
 * `value` as JSON text for a TEXT column, or null when there is nothing to store or JSON
 * cannot represent it (a cycle, a BigInt, a throwing getter or `toJSON`, a bare function).
 * Never throws: an odd adapter payload must not cost the message it came with.
 */
export function toJsonColumn(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

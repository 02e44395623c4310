function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Tool-call arguments as an object, whatever the server sent: a JSON string (the standard),
 * an object (some local servers), nothing (`{}`), or text that is not a JSON object, which
 * is kept as `{ _raw: text }` and not repaired.
 */
export function parseToolArguments(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (isPlainObject(value)) return value;
  if (typeof value !== 'string') return { _raw: JSON.stringify(value) };
  if (value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isPlainObject(parsed) ? parsed : { _raw: value };
  } catch {
    return { _raw: value };
  }
}

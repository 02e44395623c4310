/**
 * The value in a JSON TEXT column written by `toJsonColumn`; null for NULL and for text that
 * is not JSON (a row edited by hand), so one damaged row cannot break a whole read.
 */
export function fromJsonColumn(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Milliseconds a `Retry-After` header asks to wait: delay-seconds (`"3"`, `"1.5"`) or an
 * HTTP date, measured from `nowMs`. `undefined` when the header is absent or unreadable.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

const MAX_SOURCE_CHARS = 120;

/**
 * A media source as it may appear in a log line: inline data (`base64://`, `data:`) is
 * replaced by its length, and long URLs or paths are cut. Image bytes are never logged.
 */
export function shortenSource(source: string): string {
  if (source.startsWith('base64://')) return `base64://(${source.length - 'base64://'.length} chars)`;
  if (source.startsWith('data:')) return `data:(${source.length - 'data:'.length} chars)`;
  const characters = Array.from(source);
  if (characters.length <= MAX_SOURCE_CHARS) return source;
  return `${characters.slice(0, MAX_SOURCE_CHARS - 1).join('')}…`;
}

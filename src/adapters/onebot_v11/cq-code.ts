/** One message segment as OneBot v11 writes it: `{type, data}`. */
export interface OneBotSegment {
  type: string;
  data: Record<string, unknown>;
}

/** `[CQ:type,key=value,...]`; values never hold a raw `,` or `]` (they are escaped). */
const CQ_CODE = /\[CQ:([\w.-]+)((?:,[^\]]*)?)\]/g;

/** Undoes CQ escaping. `&amp;` goes last so `&amp;#91;` stays the literal text `&#91;`. */
export function unescapeCq(text: string): string {
  return text.replaceAll('&#44;', ',').replaceAll('&#91;', '[').replaceAll('&#93;', ']').replaceAll('&amp;', '&');
}

function parseParams(params: string): Record<string, string> {
  const data: Record<string, string> = {};
  for (const pair of params.split(',')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = equals === -1 ? pair : pair.slice(0, equals);
    // defineProperty keeps a key such as "__proto__" an ordinary own property.
    Object.defineProperty(data, key, {
      value: equals === -1 ? '' : unescapeCq(pair.slice(equals + 1)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return data;
}

/**
 * Parses a message in CQ-code string form (`hi [CQ:at,qq=123] [CQ:image,file=a.jpg]`) into
 * segments. Text between codes becomes `text` segments; anything that looks like a broken
 * code stays text. Never throws.
 */
export function parseCqString(message: string): OneBotSegment[] {
  const segments: OneBotSegment[] = [];
  let last = 0;
  for (const match of message.matchAll(CQ_CODE)) {
    const index = match.index;
    if (index > last) segments.push({ type: 'text', data: { text: unescapeCq(message.slice(last, index)) } });
    segments.push({ type: match[1] ?? '', data: parseParams((match[2] ?? '').slice(1)) });
    last = index + match[0].length;
  }
  if (last < message.length) segments.push({ type: 'text', data: { text: unescapeCq(message.slice(last)) } });
  return segments;
}

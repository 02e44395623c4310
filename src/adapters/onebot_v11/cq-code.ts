/** One message segment as OneBot v11 writes it: `{type, data}`. */
export interface OneBotSegment {
  type: string;
  data: Record<string, unknown>;
}

/**
 * `[CQ:type,key=value,...]`; values never hold a raw `,` or `]` (they are escaped), so a
 * value ends at either. Types are word characters (`mface`, `json`): text such as
 * `[CQ: hi]` stays text.
 */
const CQ_CODE = /\[CQ:([\w.-]+)((?:,[^\]]*)?)\]/g;

/** Undoes CQ escaping. `&amp;` goes last so `&amp;#91;` stays the literal text `&#91;`. */
export function unescapeCq(text: string): string {
  return text.replaceAll('&#44;', ',').replaceAll('&#91;', '[').replaceAll('&#93;', ']').replaceAll('&amp;', '&');
}

/** Escapes plain text between CQ codes: `&`, `[` and `]` (`&` first, so an escape is never escaped twice). */
export function escapeCqText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('[', '&#91;').replaceAll(']', '&#93;');
}

/** Escapes a CQ code parameter value: as text, and `,` too (it separates parameters). */
export function escapeCqValue(value: string): string {
  return escapeCqText(value).replaceAll(',', '&#44;');
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

/** A data value as CQ parameter text: a nested message (a node's `content`) becomes its own CQ string. */
function valueText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return formatCqString(value.filter(isSegment));
  return JSON.stringify(value);
}

function isSegment(value: unknown): value is OneBotSegment {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/**
 * Writes segments in CQ-code string form, the inverse of `parseCqString`: `text` segments
 * become escaped text, every other segment a `[CQ:type,key=value]` code with escaped values.
 * Absent (undefined or null) values are left out.
 */
export function formatCqString(segments: readonly OneBotSegment[]): string {
  let message = '';
  for (const { type, data } of segments) {
    const fields = data ?? {};
    if (type === 'text') {
      message += escapeCqText(valueText(fields['text']) ?? '');
      continue;
    }
    let code = `[CQ:${type}`;
    for (const [key, value] of Object.entries(fields)) {
      const text = valueText(value);
      if (text !== undefined) code += `,${key}=${escapeCqValue(text)}`;
    }
    message += `${code}]`;
  }
  return message;
}

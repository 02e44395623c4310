import type { InboundSegment } from '../../../chat/inbound-envelope.js';
import type { OneBotSegment } from '../cq-code.js';
import { parseCqString } from '../cq-code.js';

/** A wire segment read into its envelope form; `problem` says what was wrong with it, if anything. */
export interface ParsedSegment {
  segment: InboundSegment;
  problem?: string;
}

/** A field of segment data as text: OneBot sends ids as strings or numbers. Own keys only. */
export function field(data: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = Object.hasOwn(data, key) ? data[key] : undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** The named fields that are present, as text, under the envelope's names (`[envelope, wire]` pairs). */
function pick(data: Readonly<Record<string, unknown>>, names: readonly (string | readonly [string, string])[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const [to, from] = typeof name === 'string' ? [name, name] : name;
    const value = field(data, from);
    if (value !== undefined) picked[to] = value;
  }
  return picked;
}

/** The text of a node's content: the spec allows a CQ string or a segment array. */
function nodeText(content: unknown, flatten: (segments: readonly OneBotSegment[]) => string): string | undefined {
  if (typeof content === 'string') return flatten(parseCqString(content));
  if (Array.isArray(content)) {
    return flatten(content.filter((item): item is OneBotSegment => typeof item === 'object' && item !== null && typeof item.type === 'string'));
  }
  return undefined;
}

/** A required field is missing: the segment is kept, its placeholder says less. */
function requireField(type: string, data: Readonly<Record<string, unknown>>, ...keys: string[]): string | undefined {
  const missing = keys.filter((key) => field(data, key) === undefined);
  return missing.length === 0 ? undefined : `${type} segment without data.${missing.join(' / data.')}`;
}

function withProblem(segment: InboundSegment, problem: string | undefined): ParsedSegment {
  return problem === undefined ? { segment } : { segment, problem };
}

/**
 * Reads one wire segment into its envelope form. Never throws and never drops a segment: a
 * type it does not know becomes `other` (with the wire type and data), a known type missing
 * a field it needs keeps what it has; both come back with a `problem` to log.
 * `flatten` renders a node's nested content as text.
 */
export function parseSegment(wire: OneBotSegment, flatten: (segments: readonly OneBotSegment[]) => string): ParsedSegment {
  const type = wire.type;
  const data = wire.data ?? {};
  switch (type) {
    case 'text':
      return withProblem({ type, text: field(data, 'text') ?? '' }, requireField(type, data, 'text'));
    case 'face':
      return withProblem({ type, ...pick(data, ['id']) }, requireField(type, data, 'id'));
    case 'image':
      return { segment: { type, ...pick(data, ['file', 'url', 'summary']), flash: field(data, 'type') === 'flash' } };
    case 'record':
    case 'video':
      return { segment: { type, ...pick(data, ['file', 'url']) } };
    case 'at':
      return withProblem({ type, ...pick(data, ['qq', 'name']) }, requireField(type, data, 'qq'));
    case 'rps':
    case 'dice':
      return { segment: { type, ...pick(data, ['result']) } };
    case 'shake':
    case 'anonymous':
      return { segment: { type } };
    case 'poke':
      return { segment: { type, ...pick(data, [['kind', 'type'], 'id', 'name']) } };
    case 'share':
      return withProblem({ type, ...pick(data, ['url', 'title', 'content', 'image']) }, requireField(type, data, 'url'));
    case 'contact':
      return withProblem({ type, ...pick(data, [['kind', 'type'], 'id']) }, requireField(type, data, 'type', 'id'));
    case 'location':
      return { segment: { type, ...pick(data, ['lat', 'lon', 'title', 'content']) } };
    case 'music':
      return withProblem({ type, ...pick(data, [['kind', 'type'], 'id', 'url', 'audio', 'title', 'content', 'image']) }, requireField(type, data, 'type'));
    case 'reply':
    case 'forward':
      return withProblem({ type, ...pick(data, ['id']) }, requireField(type, data, 'id'));
    case 'node': {
      // Lagrange names a custom node's sender `uin` / `name`; the spec says `user_id` / `nickname`.
      const text = nodeText(Object.hasOwn(data, 'content') ? data['content'] : undefined, flatten);
      const userId = field(data, 'user_id') ?? field(data, 'uin');
      const nickname = field(data, 'nickname') ?? field(data, 'name');
      return {
        segment: {
          type,
          ...pick(data, ['id']),
          ...(userId === undefined ? {} : { user_id: userId }),
          ...(nickname === undefined ? {} : { nickname }),
          ...(text === undefined ? {} : { text }),
        },
      };
    }
    case 'xml':
    case 'json':
      return withProblem({ type, ...pick(data, ['data']) }, requireField(type, data, 'data'));
    case 'file': {
      // NapCat: name, file, url, file_size; Lagrange: file_name, file_hash, file_id, url.
      const name = field(data, 'name') ?? field(data, 'file_name');
      return { segment: { type, ...(name === undefined ? {} : { name }), ...pick(data, ['file', 'url', ['size', 'file_size']]) } };
    }
    case 'mface':
      return { segment: { type, ...pick(data, ['summary', 'emoji_id', 'emoji_package_id']) } };
    case 'marketface':
      // Lagrange's name for the same sticker: face_id / tab_id.
      return { segment: { type: 'mface', ...pick(data, ['summary', ['emoji_id', 'face_id'], ['emoji_package_id', 'tab_id']]) } };
    default:
      return {
        segment: { type: 'other', wire_type: type, data: { ...data } },
        problem: `unknown segment type ${JSON.stringify(type)} (kept as [${type}])`,
      };
  }
}

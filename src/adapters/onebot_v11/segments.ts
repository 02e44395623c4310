import type { InboundEnvelope } from '../../chat/inbound-envelope.js';
import type { OutboundDelivery } from '../../chat/outbound-sink.js';
import type { MessageEvent } from './codec.js';
import { type OneBotSegment, parseCqString } from './cq-code.js';

export type { OneBotSegment };

/**
 * Text standing in for segments that carry no text of their own. A Map, because the key is
 * the wire's segment type: `constructor` or `__proto__` must be an unknown type like any other.
 */
const PLACEHOLDERS: ReadonlyMap<string, string> = new Map([
  ['image', '[图片]'],
  ['face', '[表情]'],
  ['forward', '[聊天记录]'],
  ['record', '[语音]'],
  ['video', '[视频]'],
]);

/** How the bot recognises itself in a message. */
export interface SelfRecognition {
  /** The bot's own account ids (the event's `self_id` is always added). */
  selfIds: ReadonlySet<string>;
  /** True for the id of a message the adapter sent; a reply to it counts as a mention. */
  isSentByBot(messageId: string): boolean;
}

/** A message's segments reduced to what the envelope needs. */
export interface FlattenedMessage {
  /** The text, with placeholders such as `[图片]` for segments without text. */
  content: string;
  /** Accounts @-mentioned (`@全体成员` is not listed). */
  atUsers: string[];
  /** The id of the message replied to (the first `reply` segment). */
  replyTo: string | null;
  /** An `at` targets the bot, or the message replies to one the bot sent. */
  mentionsBot: boolean;
  /** `image` when the message holds only images, otherwise `text`. */
  messageType: 'text' | 'image';
  /** Images and videos with a URL; `index` is the ordinal of the placeholder of its kind. */
  media: { kind: 'image' | 'video'; url: string; file?: string; index: number }[];
}

/** A field of segment data as text: OneBot sends ids as strings or numbers. */
function field(data: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = Object.hasOwn(data, key) ? data[key] : undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return undefined;
}

/** The segments of a message body, parsing the CQ-code string form. */
export function toSegments(message: string | readonly OneBotSegment[]): OneBotSegment[] {
  return typeof message === 'string' ? parseCqString(message) : [...message];
}

/** Flattens segments to text and collects mentions and the reply target. */
export function flattenSegments(segments: readonly OneBotSegment[], self: SelfRecognition): FlattenedMessage {
  let content = '';
  const atUsers: string[] = [];
  let replyTo: string | null = null;
  let mentionsBot = false;
  const media: FlattenedMessage['media'] = [];
  const seen = { image: 0, video: 0 };
  for (const { type, data } of segments) {
    if (type === 'image' || type === 'video') {
      const index = seen[type]++;
      // NapCat puts the download URL in `url`; some implementations only give `file` as a URL.
      const file = field(data, 'file');
      const url = field(data, 'url') ?? (file !== undefined && /^(https?|file|base64):\/\//.test(file) ? file : undefined);
      if (url !== undefined && url !== '') media.push({ kind: type, url, index, ...(file === undefined || file === url ? {} : { file }) });
    }
    switch (type) {
      case 'text':
        content += field(data, 'text') ?? '';
        break;
      case 'at': {
        const qq = field(data, 'qq');
        if (qq === 'all') {
          content += '@全体成员';
          break;
        }
        const name = field(data, 'name');
        content += `@${name !== undefined && name !== '' ? name : (qq ?? '')}`;
        if (qq === undefined || qq === '') break;
        atUsers.push(qq);
        if (self.selfIds.has(qq)) mentionsBot = true;
        break;
      }
      case 'reply': {
        const id = field(data, 'id');
        if (id === undefined || id === '' || replyTo !== null) break;
        replyTo = id;
        if (self.isSentByBot(id)) mentionsBot = true;
        break;
      }
      default:
        content += PLACEHOLDERS.get(type) ?? `[${type}]`;
    }
  }
  const onlyImages = segments.length > 0 && segments.every((segment) => segment.type === 'image');
  return { content, atUsers, replyTo, mentionsBot, messageType: onlyImages ? 'image' : 'text', media };
}

function nonEmpty(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === '' ? null : value;
}

/** The envelope the host stores for one message event; `raw` is the event as received. */
export function buildEnvelope(event: MessageEvent, platform: string, self: SelfRecognition): InboundEnvelope {
  const selfIds = new Set([...self.selfIds, String(event.self_id)]);
  const flat = flattenSegments(toSegments(event.message), { selfIds, isSentByBot: (id) => self.isSentByBot(id) });
  const group =
    event.message_type === 'group' && event.group_id !== undefined ? { id: String(event.group_id), name: event.group_name ?? '' } : undefined;
  return {
    platform,
    message_id: String(event.message_id),
    ...(event.time > 0 ? { time: event.time } : {}),
    chat_type: event.message_type,
    ...(group === undefined ? {} : { group }),
    sender: {
      id: String(event.user_id),
      name: event.sender?.nickname ?? '',
      card: nonEmpty(event.sender?.card),
      role: nonEmpty(event.sender?.role),
    },
    content: flat.content,
    message_type: flat.messageType,
    reply_to: flat.replyTo,
    at_users: flat.atUsers,
    mentions_bot: flat.mentionsBot,
    ...(flat.media.length === 0 ? {} : { media: flat.media }),
    raw: event,
  };
}

/**
 * The segments for one outbound message: a `reply` first when replying, an `at` when
 * addressing someone, then the text (after an `at`, separated by one space).
 */
export function toOutboundSegments(delivery: OutboundDelivery): OneBotSegment[] {
  const segments: OneBotSegment[] = [];
  if (delivery.replyTo !== null && delivery.replyTo !== '') segments.push({ type: 'reply', data: { id: delivery.replyTo } });
  const at = delivery.at !== null && delivery.at !== '';
  if (at) segments.push({ type: 'at', data: { qq: delivery.at } });
  const text = at && delivery.content !== '' && !/^\s/.test(delivery.content) ? ` ${delivery.content}` : delivery.content;
  if (text !== '') segments.push({ type: 'text', data: { text } });
  return segments;
}

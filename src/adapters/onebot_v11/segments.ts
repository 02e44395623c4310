import type { InboundEnvelope, InboundSegment } from '../../chat/inbound-envelope.js';
import type { OutboundDelivery } from '../../chat/outbound-sink.js';
import type { MessageEvent } from './codec.js';
import { type OneBotSegment, parseCqString } from './cq-code.js';
import { parseSegment } from './segments/parse-segment.js';
import { placeholderOf } from './segments/placeholder.js';

export type { OneBotSegment };

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
  /** Every segment in its envelope form, in order: an unknown type is `other`; only an empty text is left out. */
  segments: InboundSegment[];
  /** What was wrong with a segment, one line each (`segment 2: unknown segment type "x"`), for the log. */
  problems: string[];
}

/** The segments of a message body, parsing the CQ-code string form. */
export function toSegments(message: string | readonly OneBotSegment[]): OneBotSegment[] {
  return typeof message === 'string' ? parseCqString(message) : [...message];
}

/** Nodes inside nodes deeper than this show as `…`: a frame cannot make the parser recurse without end. */
const MAX_NODE_DEPTH = 3;

/** The placeholder text of segments alone (a forward node's content), without mentions or media. */
function plainText(segments: readonly OneBotSegment[], depth: number): string {
  if (depth > MAX_NODE_DEPTH) return '…';
  return segments.map((wire) => placeholderOf(parseSegment(wire, (inner) => plainText(inner, depth + 1)).segment)).join('');
}

/** Flattens segments to text and collects mentions, the reply target, media and the parsed segments. */
export function flattenSegments(segments: readonly OneBotSegment[], self: SelfRecognition): FlattenedMessage {
  let content = '';
  const atUsers: string[] = [];
  let replyTo: string | null = null;
  let mentionsBot = false;
  const media: FlattenedMessage['media'] = [];
  const parsedSegments: InboundSegment[] = [];
  const problems: string[] = [];
  const seen = { image: 0, video: 0 };
  segments.forEach((wire, position) => {
    const { segment, problem } = parseSegment(wire, (inner) => plainText(inner, 1));
    // An empty text carries nothing (SnowLuma sends one as a placeholder); the CQ form cannot even write it.
    if (!(segment.type === 'text' && segment.text === '' && problem === undefined)) parsedSegments.push(segment);
    if (problem !== undefined) problems.push(`segment ${position}: ${problem}`);
    content += placeholderOf(segment);
    if (segment.type === 'image' || segment.type === 'video') {
      const index = seen[segment.type]++;
      // NapCat puts the download URL in `url`; some implementations only give `file` as a URL.
      const file = segment.file;
      const url = segment.url ?? (file !== undefined && /^(https?|file|base64):\/\//.test(file) ? file : undefined);
      if (url !== undefined && url !== '') media.push({ kind: segment.type, url, index, ...(file === undefined || file === url ? {} : { file }) });
    } else if (segment.type === 'at') {
      const qq = segment.qq;
      if (qq === undefined || qq === '' || qq === 'all') return;
      atUsers.push(qq);
      if (self.selfIds.has(qq)) mentionsBot = true;
    } else if (segment.type === 'reply') {
      const id = segment.id;
      if (id === undefined || id === '' || replyTo !== null) return;
      replyTo = id;
      if (self.isSentByBot(id)) mentionsBot = true;
    }
  });
  const onlyImages = segments.length > 0 && segments.every((segment) => segment.type === 'image');
  return { content, atUsers, replyTo, mentionsBot, messageType: onlyImages ? 'image' : 'text', media, segments: parsedSegments, problems };
}

function nonEmpty(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === '' ? null : value;
}

/**
 * The envelope the host stores for one message event; `raw` is the event as received.
 * `reportProblem` hears each segment that was unknown or incomplete (the adapter logs it):
 * such a segment is kept, never dropped silently.
 */
export function buildEnvelope(
  event: MessageEvent,
  platform: string,
  self: SelfRecognition,
  reportProblem: (problem: string) => void = () => {},
): InboundEnvelope {
  const selfIds = new Set([...self.selfIds, String(event.self_id)]);
  const flat = flattenSegments(toSegments(event.message), { selfIds, isSentByBot: (id) => self.isSentByBot(id) });
  for (const problem of flat.problems) reportProblem(`message ${String(event.message_id)}: ${problem}`);
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
    segments: flat.segments,
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
 * addressing someone, then the text (after an `at`, separated by one space), then one
 * `image` / `record` / `video` segment per media item, its `file` as given (an `http(s)://`
 * URL, `base64://…` or a `file:///` URL).
 */
export function toOutboundSegments(delivery: OutboundDelivery): OneBotSegment[] {
  const segments: OneBotSegment[] = [];
  if (delivery.replyTo !== null && delivery.replyTo !== '') segments.push({ type: 'reply', data: { id: delivery.replyTo } });
  const at = delivery.at !== null && delivery.at !== '';
  if (at) segments.push({ type: 'at', data: { qq: delivery.at } });
  const text = at && delivery.content !== '' && !/^\s/.test(delivery.content) ? ` ${delivery.content}` : delivery.content;
  if (text !== '') segments.push({ type: 'text', data: { text } });
  for (const media of delivery.media ?? []) segments.push({ type: media.kind, data: { file: media.file } });
  return segments;
}

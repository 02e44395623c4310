import type { ValidInboundEnvelope } from './inbound-envelope.js';

/** Default of `features.toml [chat] max_inbound_chars`. */
export const DEFAULT_MAX_INBOUND_CHARS = 20_000;
/** More @-mentions than this in one message are dropped (a real message has a handful). */
export const MAX_INBOUND_AT_USERS = 100;
/** More images and videos than this in one message are dropped (each one may cost a model call). */
export const MAX_INBOUND_MEDIA = 50;

/** The mark that ends a cut text; the model reads it, so it says what happened. */
export function truncationMark(removedChars: number): string {
  return `…[消息过长，已截断 ${removedChars} 字]`;
}

/**
 * What is stored as `raw` instead of an over-long frame: the frame itself is dropped, these
 * facts say that it was and how big it was.
 */
export interface TruncatedRawSummary {
  truncated: true;
  /** Length of the envelope's `content` before the cut, UTF-16 code units. */
  content_chars: number;
  /** Length of the frame as JSON text; null when JSON cannot represent it. */
  raw_json_chars: number | null;
}

/** What `capInboundEnvelope` changed; every field is zero or false for an ordinary message. */
export interface InboundCaps {
  /** Characters cut from `content`. */
  removedChars: number;
  droppedAtUsers: number;
  droppedMedia: number;
  /** The raw frame was replaced by a `TruncatedRawSummary`. */
  rawReplaced: boolean;
}

/**
 * Bounds one envelope: `content` longer than `maxChars` keeps its first `maxChars`
 * characters plus `truncationMark`; the `at_users` and `media` lists keep their first
 * entries. The raw frame is replaced by a `TruncatedRawSummary` when the content was cut or
 * its JSON text is longer than four times `maxChars` (room for the segment structure of a
 * message just under the cap). Returns the envelope itself when nothing needed cutting.
 */
export function capInboundEnvelope(envelope: ValidInboundEnvelope, maxChars: number): { envelope: ValidInboundEnvelope; caps: InboundCaps } {
  const { text, removed } = capText(envelope.content, maxChars);
  const atUsers = envelope.at_users.slice(0, MAX_INBOUND_AT_USERS);
  const media = envelope.media.slice(0, MAX_INBOUND_MEDIA);
  const rawJsonChars = jsonLength(envelope.raw);
  const rawReplaced = envelope.raw !== undefined && envelope.raw !== null && (removed > 0 || (rawJsonChars ?? 0) > maxChars * 4);
  const caps: InboundCaps = {
    removedChars: removed,
    droppedAtUsers: envelope.at_users.length - atUsers.length,
    droppedMedia: envelope.media.length - media.length,
    rawReplaced,
  };
  if (removed === 0 && caps.droppedAtUsers === 0 && caps.droppedMedia === 0 && !rawReplaced) return { envelope, caps };
  const summary: TruncatedRawSummary = { truncated: true, content_chars: envelope.content.length, raw_json_chars: rawJsonChars };
  return {
    envelope: { ...envelope, content: text, at_users: atUsers, media, ...(rawReplaced ? { raw: summary } : {}) },
    caps,
  };
}

function capText(text: string, maxChars: number): { text: string; removed: number } {
  if (text.length <= maxChars) return { text, removed: 0 };
  // Never split a surrogate pair: a lone half would show as garbage (and is invalid UTF-8 on the wire).
  const end = isHighSurrogate(text.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  const removed = text.length - end;
  return { text: text.slice(0, end) + truncationMark(removed), removed };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function jsonLength(value: unknown): number | null {
  if (value === undefined || value === null) return 0;
  try {
    return JSON.stringify(value)?.length ?? null;
  } catch {
    return null; // a cycle or a BigInt: the repository stores such a frame as null and says so
  }
}

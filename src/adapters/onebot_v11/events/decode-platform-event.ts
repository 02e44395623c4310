import { parseNotice, parseRequest } from '../../../chat/platform-events.js';
import type { PlatformNotice } from '../../../chat/platform-notice.js';
import type { PlatformRequest } from '../../../chat/platform-request.js';

/** A decoded notice or request frame, or why it was not one the adapter passes on. */
export type DecodedPlatformEvent =
  | { readonly kind: 'notice'; readonly selfId: string; readonly time: number; readonly notice: PlatformNotice }
  | { readonly kind: 'request'; readonly selfId: string; readonly time: number; readonly request: PlatformRequest }
  | { readonly kind: 'ignored'; readonly reason: string }
  | { readonly kind: 'invalid'; readonly reason: string };

/** `self_id` and `time`, which every v11 event has; a reason when either is unusable. */
function originOf(frame: Record<string, unknown>): { selfId: string; time: number } | { reason: string } {
  const selfId = frame['self_id'];
  if (!(typeof selfId === 'string' && selfId !== '') && !(typeof selfId === 'number' && Number.isInteger(selfId))) {
    return { reason: selfId === undefined ? 'self_id: is missing' : 'self_id: must be an integer or a non-empty string' };
  }
  const time = frame['time'];
  if (typeof time !== 'number') return { reason: time === undefined ? 'time: is missing' : 'time: must be a number (epoch seconds)' };
  return { selfId: String(selfId), time };
}

/**
 * Decodes a `post_type: notice` or `request` frame against the v11 schemas. One outside v11
 * (an implementation's own notice type) is `ignored`; a v11 one with a bad field is `invalid`,
 * with the field and the problem.
 */
export function decodePlatformEvent(frame: Record<string, unknown>, postType: 'notice' | 'request'): DecodedPlatformEvent {
  const parsed = postType === 'notice' ? parseNotice(frame) : parseRequest(frame);
  if (!parsed.ok) return { kind: parsed.unknown ? 'ignored' : 'invalid', reason: `${postType} event: ${parsed.reason}` };
  const origin = originOf(frame);
  if ('reason' in origin) return { kind: 'invalid', reason: `${postType} event: ${origin.reason}` };
  return 'notice' in parsed ? { kind: 'notice', ...origin, notice: parsed.notice } : { kind: 'request', ...origin, request: parsed.request };
}

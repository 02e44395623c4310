import * as z from 'zod';
import { expected } from './platform-id.js';
import { noticeSchemaFor, type PlatformNotice } from './platform-notice.js';
import { requestSchemaFor, type PlatformRequest } from './platform-request.js';
import type { StreamAddress } from './stream-id.js';

/** What every platform event carries besides its notice or request. */
export interface PlatformEventOrigin {
  /** The adapter's platform name (`qq`). */
  platform: string;
  /** The bot account the event arrived on (OneBot: the frame's `self_id`). */
  self_id: string;
  /** Epoch seconds, as the platform dated it. */
  time: number;
}

/** A notice or request as an adapter hands it to the host (over the adapter IPC). */
export type PlatformEvent =
  | (PlatformEventOrigin & { kind: 'notice'; notice: PlatformNotice })
  | (PlatformEventOrigin & { kind: 'request'; request: PlatformRequest });

/** `on_notice`: a member joined or left, a message was recalled, a poke … Handlers only observe. */
export interface OnNoticePayload extends PlatformEventOrigin {
  /** The conversation the notice is about (its group, or the private chat), when it has one. */
  stream_id: string | null;
  /** The adapter that delivered it, `<plugin>:adapter:<name>`; `unknown` when the caller named none. */
  adapter_signature: string;
  /** The notice, validated; narrow on `notice_type` (and `sub_type`). */
  notice: PlatformNotice;
}

/** `on_request`: a friend request or a group join request / invitation, to answer through `ctx.platform`. */
export interface OnRequestPayload extends PlatformEventOrigin {
  /**
   * The conversation the request concerns (the group, or the private chat with the
   * requester), when it has one; a stream id is given even if nothing was said there yet.
   */
  stream_id: string | null;
  /** The adapter that delivered it, `<plugin>:adapter:<name>`; `unknown` when the caller named none. */
  adapter_signature: string;
  /** The request, validated; answer it with its `flag` (see {@link FriendRequest}, {@link GroupRequest}). */
  request: PlatformRequest;
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    /** A platform notice arrived (join, leave, recall, poke …); see {@link OnNoticePayload}. */
    on_notice: OnNoticePayload;
    /** A friend or group request arrived; see {@link OnRequestPayload}. */
    on_request: OnRequestPayload;
  }
}

const OriginSchema = z.object({
  platform: z.string(expected('a string')).min(1, { error: 'must not be empty' }),
  self_id: z.string(expected('a string')).min(1, { error: 'must not be empty' }),
  time: z.number(expected('a number (epoch seconds)')),
});

function reasonOf(error: z.ZodError, prefix: string): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${[prefix, ...issue.path.map(String)].filter((part) => part !== '').join('.')}: ${issue.message}`)
    .join('; ');
}

/** What {@link parsePlatformEvent} gives: the event, or why it was refused (`reason` names the field). */
export type ParsedPlatformEvent = { ok: true; event: PlatformEvent } | { ok: false; reason: string };

/** Validates a notice body (the fields after `post_type`); `unknown` when it is not a v11 notice. */
export function parseNotice(body: Record<string, unknown>): { ok: true; notice: PlatformNotice } | { ok: false; reason: string; unknown: boolean } {
  const schema = noticeSchemaFor(body['notice_type'], body['sub_type']);
  if (schema === undefined) {
    const subType = typeof body['sub_type'] === 'string' ? ` / sub_type ${JSON.stringify(body['sub_type'])}` : '';
    return { ok: false, unknown: true, reason: `notice_type ${JSON.stringify(body['notice_type'])}${subType} is not a OneBot v11 notice` };
  }
  const parsed = schema.safeParse(body);
  return parsed.success ? { ok: true, notice: parsed.data } : { ok: false, unknown: false, reason: reasonOf(parsed.error, '') };
}

/** Validates a request body; `unknown` when `request_type` is not a v11 one. */
export function parseRequest(body: Record<string, unknown>): { ok: true; request: PlatformRequest } | { ok: false; reason: string; unknown: boolean } {
  const schema = requestSchemaFor(body['request_type']);
  if (schema === undefined) return { ok: false, unknown: true, reason: `request_type ${JSON.stringify(body['request_type'])} is not a OneBot v11 request` };
  const parsed = schema.safeParse(body);
  return parsed.success ? { ok: true, request: parsed.data } : { ok: false, unknown: false, reason: reasonOf(parsed.error, '') };
}

/** Validates a platform event received from an adapter process; the reason names the field. */
export function parsePlatformEvent(input: unknown): ParsedPlatformEvent {
  if (typeof input !== 'object' || input === null) return { ok: false, reason: '(event): must be an object' };
  const record = input as Record<string, unknown>;
  const origin = OriginSchema.safeParse(record);
  if (!origin.success) return { ok: false, reason: reasonOf(origin.error, '') };
  const body = record[record['kind'] === 'notice' ? 'notice' : 'request'];
  if (record['kind'] !== 'notice' && record['kind'] !== 'request') return { ok: false, reason: 'kind: must be "notice" or "request"' };
  if (typeof body !== 'object' || body === null) return { ok: false, reason: `${record['kind']}: must be an object` };
  if (record['kind'] === 'notice') {
    const notice = parseNotice(body as Record<string, unknown>);
    return notice.ok ? { ok: true, event: { ...origin.data, kind: 'notice', notice: notice.notice } } : { ok: false, reason: `notice: ${notice.reason}` };
  }
  const request = parseRequest(body as Record<string, unknown>);
  return request.ok ? { ok: true, event: { ...origin.data, kind: 'request', request: request.request } } : { ok: false, reason: `request: ${request.reason}` };
}

/** The conversation an event concerns, on the account it came from: its group, else the private chat with its user. */
export function chatOfEvent(event: PlatformEvent): StreamAddress | null {
  const body: { group_id?: string | null; user_id?: string } = event.kind === 'notice' ? event.notice : event.request;
  const origin = { platform: event.platform, account: event.self_id };
  if (typeof body.group_id === 'string' && body.group_id !== '') return { ...origin, chatType: 'group', groupId: body.group_id };
  if (typeof body.user_id === 'string' && body.user_id !== '') return { ...origin, chatType: 'private', userId: body.user_id };
  return null;
}

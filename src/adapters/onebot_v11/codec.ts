import * as z from 'zod';
import { describeError } from '../../kernel/errors/describe-error.js';
import type { PlatformNotice } from '../../chat/platform-notice.js';
import type { PlatformRequest } from '../../chat/platform-request.js';
import { decodePlatformEvent } from './events/decode-platform-event.js';

/** A zod error option: "is missing" for an absent field, otherwise "must be <what>". */
function expected(what: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => (issue.input === undefined ? 'is missing' : `must be ${what}`) };
}

/** OneBot ids are integers on the wire (message ids may be negative int32); some implementations send strings. */
const OneBotIdSchema = z.union([z.number().int(), z.string().min(1)], expected('an integer or a non-empty string'));

/** One segment `{type, data}`; `data` may be absent or null for segments without fields. */
export const SegmentSchema = z.looseObject({
  type: z.string(expected('a string')).min(1, { error: 'must not be empty' }),
  data: z
    .record(z.string(), z.unknown(), expected('an object'))
    .nullish()
    .transform((data) => data ?? {}),
});

const SenderSchema = z.looseObject({
  user_id: OneBotIdSchema.optional(),
  nickname: z.string(expected('a string')).nullish(),
  card: z.string(expected('a string')).nullish(),
  role: z.string(expected('a string')).nullish(),
});

/** The message body: an array of segments, or a CQ-code string when the implementation uses string format. */
const MessageBodySchema = z.union([z.string(), z.array(SegmentSchema)], expected('an array of segments or a CQ-code string'));

/** A private or group message event (`post_type: 'message'`). Unknown keys are kept. */
export const MessageEventSchema = z
  .looseObject({
    time: z.number(expected('a number (epoch seconds)')),
    self_id: OneBotIdSchema,
    post_type: z.literal('message'),
    message_type: z.enum(['private', 'group'], expected('"private" or "group"')),
    sub_type: z.string(expected('a string')).optional(),
    message_id: OneBotIdSchema,
    user_id: OneBotIdSchema,
    group_id: OneBotIdSchema.optional(),
    group_name: z.string(expected('a string')).optional(),
    message: MessageBodySchema,
    raw_message: z.string(expected('a string')).optional(),
    font: z.number(expected('a number')).optional(),
    sender: SenderSchema.optional(),
  })
  .refine((event) => event.message_type !== 'group' || event.group_id !== undefined, {
    error: 'is missing (a group message needs group_id)',
    path: ['group_id'],
  });

/** A meta event: `lifecycle` (`sub_type: connect` on a new socket) or `heartbeat`. */
export const MetaEventSchema = z.looseObject({
  post_type: z.literal('meta_event'),
  meta_event_type: z.string(expected('a string')),
  sub_type: z.string(expected('a string')).optional(),
  self_id: OneBotIdSchema.optional(),
  time: z.number(expected('a number')).optional(),
  interval: z.number(expected('a number')).optional(),
  status: z.unknown().optional(),
});

/** The answer to an action call, matched to its call by `echo`. */
export const ActionResponseSchema = z.looseObject({
  status: z.enum(['ok', 'async', 'failed'], expected('"ok", "async" or "failed"')),
  retcode: z.number(expected('a number')),
  data: z.unknown().optional(),
  echo: z.unknown().optional(),
  message: z.string(expected('a string')).optional(),
  wording: z.string(expected('a string')).optional(),
});

export type MessageEvent = z.output<typeof MessageEventSchema>;
export type MetaEvent = z.output<typeof MetaEventSchema>;
export type ActionResponse = z.output<typeof ActionResponseSchema>;

/** What one WebSocket text frame turned out to be. */
export type DecodedFrame =
  | { readonly kind: 'message'; readonly event: MessageEvent }
  | { readonly kind: 'meta'; readonly event: MetaEvent }
  | { readonly kind: 'response'; readonly response: ActionResponse }
  /** A v11 notice (`notice_type` …) or request; `selfId` is the frame's `self_id`: the account it arrived on. */
  | { readonly kind: 'notice'; readonly selfId: string; readonly time: number; readonly notice: PlatformNotice }
  | { readonly kind: 'request'; readonly selfId: string; readonly time: number; readonly request: PlatformRequest }
  /** Valid OneBot, but nothing the adapter acts on (notice types outside v11, the bot's own `message_sent`). */
  | { readonly kind: 'ignored'; readonly reason: string }
  /** Not usable; `reason` names the field and the problem. */
  | { readonly kind: 'invalid'; readonly reason: string };

const MAX_REASONS = 3;

/**
 * A failed union (`message`: string or segment array) reports its own generic issue. When one
 * branch matched the value's type and failed deeper (`message.2.type`), that branch's issues
 * say more, so they replace it.
 */
function expandUnion(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const deeper = issue.errors.find((branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0));
  if (deeper === undefined) return [issue];
  return deeper.flatMap((inner) => expandUnion({ ...inner, path: [...issue.path, ...inner.path] }));
}

function formatIssues(error: z.ZodError): string {
  const issues = error.issues.flatMap(expandUnion);
  const reasons = issues.slice(0, MAX_REASONS).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  const more = issues.length - MAX_REASONS;
  return more > 0 ? `${reasons.join('; ')} (and ${more} more)` : reasons.join('; ');
}

function validated<T>(schema: z.ZodType<T>, frame: unknown, wrap: (value: T) => DecodedFrame): DecodedFrame {
  const result = schema.safeParse(frame);
  return result.success ? wrap(result.data) : { kind: 'invalid', reason: formatIssues(result.error) };
}

function decodeEvent(frame: Record<string, unknown>, postType: string): DecodedFrame {
  switch (postType) {
    case 'message':
      return validated(MessageEventSchema, frame, (event) => ({ kind: 'message', event }));
    case 'meta_event':
      return validated(MetaEventSchema, frame, (event) => ({ kind: 'meta', event }));
    case 'notice':
    case 'request':
      return decodePlatformEvent(frame, postType);
    case 'message_sent':
      return { kind: 'ignored', reason: "message_sent event (the bot's own message)" };
    default:
      return { kind: 'ignored', reason: `unknown post_type ${JSON.stringify(postType)}` };
  }
}

function decodeObject(frame: Record<string, unknown>): DecodedFrame {
  if (Object.hasOwn(frame, 'post_type')) {
    const postType = frame['post_type'];
    if (typeof postType !== 'string') return { kind: 'invalid', reason: 'post_type: must be a string' };
    return decodeEvent(frame, postType);
  }
  if (Object.hasOwn(frame, 'status') || Object.hasOwn(frame, 'retcode')) {
    return validated(ActionResponseSchema, frame, (response) => ({ kind: 'response', response }));
  }
  return { kind: 'invalid', reason: 'post_type: is missing (the frame is neither an event nor an action response with status)' };
}

function decodeText(text: string): DecodedFrame {
  if (typeof text !== 'string') return { kind: 'invalid', reason: 'frame: must be text' };
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', reason: `frame: not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
    return { kind: 'invalid', reason: `frame: must be a JSON object, got ${Array.isArray(frame) ? 'an array' : frame === null ? 'null' : typeof frame}` };
  }
  return decodeObject(frame as Record<string, unknown>);
}

/**
 * Decodes one WebSocket text frame from a OneBot v11 implementation. Never throws: anything
 * unusable comes back as `{kind: 'invalid', reason}` with the field and the problem.
 */
export function decodeFrame(text: string): DecodedFrame {
  try {
    return decodeText(text);
  } catch (error) {
    return { kind: 'invalid', reason: `frame: cannot be decoded (${describeError(error)})` };
  }
}

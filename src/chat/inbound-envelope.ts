import * as z from 'zod';

const id = z.union([z.string().min(1), z.number().int().transform(String)]);

const optionalText = z.string().optional();

/**
 * One segment of an inbound message as the adapter understood it (OneBot v11's segment types,
 * plus `file` and `mface` (Lagrange: `marketface`), which NapCat and Lagrange send). Fields are the wire's, as text;
 * `other` keeps a segment of a type the adapter does not know, with its data, so nothing is
 * lost. Each shows in `content` as the placeholder the adapter wrote for it.
 */
export const InboundSegmentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('face'), id: optionalText }),
  /** `flash`: a flash image (`type=flash`); `summary`: the platform's caption, e.g. `[动画表情]`. */
  z.object({ type: z.literal('image'), file: optionalText, url: optionalText, flash: z.boolean().default(false), summary: optionalText }),
  z.object({ type: z.literal('record'), file: optionalText, url: optionalText }),
  z.object({ type: z.literal('video'), file: optionalText, url: optionalText }),
  /** `qq` is an account id or `all` (@全体成员). */
  z.object({ type: z.literal('at'), qq: optionalText, name: optionalText }),
  z.object({ type: z.literal('rps'), result: optionalText }),
  z.object({ type: z.literal('dice'), result: optionalText }),
  z.object({ type: z.literal('shake') }),
  /** `kind` and `id` are the wire's `type` and `id` of the poke. */
  z.object({ type: z.literal('poke'), kind: optionalText, id: optionalText, name: optionalText }),
  z.object({ type: z.literal('anonymous') }),
  z.object({ type: z.literal('share'), url: optionalText, title: optionalText, content: optionalText, image: optionalText }),
  /** `kind`: `qq` (a person) or `group`. */
  z.object({ type: z.literal('contact'), kind: optionalText, id: optionalText }),
  z.object({ type: z.literal('location'), lat: optionalText, lon: optionalText, title: optionalText, content: optionalText }),
  /** `kind`: `qq`, `163`, `custom` and so on; a custom share carries its own url, audio and title. */
  z.object({
    type: z.literal('music'),
    kind: optionalText,
    id: optionalText,
    url: optionalText,
    audio: optionalText,
    title: optionalText,
    content: optionalText,
    image: optionalText,
  }),
  z.object({ type: z.literal('reply'), id: optionalText }),
  z.object({ type: z.literal('forward'), id: optionalText }),
  /** A forward node: a message id, or a custom node with sender and content (flattened to `text`). */
  z.object({ type: z.literal('node'), id: optionalText, user_id: optionalText, nickname: optionalText, text: optionalText }),
  z.object({ type: z.literal('xml'), data: optionalText }),
  z.object({ type: z.literal('json'), data: optionalText }),
  z.object({ type: z.literal('file'), name: optionalText, file: optionalText, url: optionalText, size: optionalText }),
  z.object({ type: z.literal('mface'), summary: optionalText, emoji_id: optionalText, emoji_package_id: optionalText }),
  /** A segment type the adapter does not know: its wire type and data, as received. */
  z.object({ type: z.literal('other'), wire_type: z.string(), data: z.record(z.string(), z.unknown()) }),
]);

/** One parsed segment of an inbound message (see `InboundSegmentSchema`); narrow on `type`. */
export type InboundSegment = z.output<typeof InboundSegmentSchema>;

/**
 * What an adapter hands the host for one received message, validated at the boundary.
 * Ids arrive as strings or numbers (OneBot sends numbers) and are kept as strings.
 */
export const InboundEnvelopeSchema = z.object({
  platform: z.string().min(1),
  /**
   * The bot account the message arrived on (OneBot: the connection's `self_id`); the replies
   * to it go out on the same account. Absent: the adapter's only or default connection.
   */
  account: id.optional(),
  message_id: id,
  /** Epoch seconds; the host's clock when absent. */
  time: z.number().positive().optional(),
  chat_type: z.enum(['private', 'group']),
  group: z.object({ id, name: z.string().default('') }).optional(),
  sender: z.object({
    id,
    name: z.string().default(''),
    card: z.string().nullable().default(null),
    role: z.string().nullable().default(null),
  }),
  /** The text, segments flattened (`[图片]` for an image and so on). */
  content: z.string(),
  /** The message's segments, in order, as the adapter parsed them (absent: the adapter gives only `content`). */
  segments: z.array(InboundSegmentSchema).default([]),
  message_type: z.string().default('text'),
  reply_to: id.nullable().default(null),
  at_users: z.array(id).default([]),
  /** The bot was @-mentioned or replied to. */
  mentions_bot: z.boolean().default(false),
  /**
   * The images and videos of the message, in the order of their `[图片]` / `[视频]`
   * placeholders in `content`; the host replaces each placeholder with its description.
   */
  media: z
    .array(
      z.object({
        kind: z.enum(['image', 'video']),
        url: z.string().min(1),
        /** The platform's content file name (a hash), the cache key of a video. */
        file: z.string().optional(),
        /** Which placeholder of its kind in `content` it fills (0: the first `[图片]`); default: its position among the media of its kind. */
        index: z.number().int().min(0).optional(),
      }),
    )
    .default([]),
  raw: z.unknown().optional(),
}).refine((envelope) => envelope.chat_type === 'private' || envelope.group !== undefined, {
  message: 'a group message needs group.id',
  path: ['group'],
});

/**
 * An envelope as an adapter may write it (see `InboundEnvelopeSchema`): ids as strings
 * or numbers, defaulted fields optional. The host validates it on receipt.
 */
export type InboundEnvelope = z.input<typeof InboundEnvelopeSchema>;
/** An envelope after validation: ids as strings, every default filled in. */
export type ValidInboundEnvelope = z.output<typeof InboundEnvelopeSchema>;

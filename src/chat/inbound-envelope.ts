import * as z from 'zod';

const id = z.union([z.string().min(1), z.number().int().transform(String)]);

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

export type InboundEnvelope = z.input<typeof InboundEnvelopeSchema>;
export type ValidInboundEnvelope = z.output<typeof InboundEnvelopeSchema>;

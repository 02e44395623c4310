import * as z from 'zod';

const id = z.union([z.string().min(1), z.number().int().transform(String)]);

/**
 * What an adapter hands the host for one received message, validated at the boundary.
 * Ids arrive as strings or numbers (OneBot sends numbers) and are kept as strings.
 */
export const InboundEnvelopeSchema = z.object({
  platform: z.string().min(1),
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
  raw: z.unknown().optional(),
}).refine((envelope) => envelope.chat_type === 'private' || envelope.group !== undefined, {
  message: 'a group message needs group.id',
  path: ['group'],
});

export type InboundEnvelope = z.input<typeof InboundEnvelopeSchema>;
export type ValidInboundEnvelope = z.output<typeof InboundEnvelopeSchema>;

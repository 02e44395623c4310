import * as z from 'zod';

/**
 * The messages between the host and an adapter process, over Node's IPC channel. Both sides
 * validate what they receive: the adapter is our code, but it is another process, and a
 * frame that does not fit is a bug worth naming rather than a crash.
 */

const delivery = z.object({
  streamId: z.string(),
  platform: z.string(),
  chatType: z.enum(['private', 'group']),
  groupId: z.string().nullable(),
  userId: z.string().nullable(),
  content: z.string(),
  replyTo: z.string().nullable(),
  at: z.string().nullable(),
  media: z.array(z.object({ kind: z.enum(['image', 'record', 'video']), file: z.string() })).readonly().optional(),
  account: z.string().nullable().optional(),
  outboxId: z.number().int().optional(),
});

const ack = z.discriminatedUnion('status', [
  z.object({ stored: z.literal(true), status: z.enum(['delivered', 'stopped', 'duplicate']) }),
  z.object({ stored: z.literal(false), status: z.literal('invalid'), reason: z.string() }),
  z.object({ stored: z.literal(false), status: z.literal('failed'), reason: z.string() }),
]);

export const HostToAdapterSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    name: z.string(),
    config: z.unknown(),
    bot: z.object({
      nickname: z.string(),
      aliases: z.array(z.string()),
      accounts: z.record(z.string(), z.string()),
      accountGroups: z.record(z.string(), z.object({ allow: z.array(z.string()), deny: z.array(z.string()) })).optional(),
    }),
  }),
  z.object({ type: z.literal('deliver'), id: z.number().int(), delivery }),
  /** A platform action; with `account`, on that account's connection only. */
  z.object({ type: z.literal('call'), id: z.number().int(), action: z.string(), params: z.record(z.string(), z.unknown()), account: z.string().nullable().optional() }),
  /** Is a delivery left in doubt on the platform? Answered by a `result` whose value is a `DeliveryCheck`. */
  z.object({ type: z.literal('confirm'), id: z.number().int(), delivery, sinceMs: z.number(), knownMessageIds: z.array(z.string()) }),
  z.object({ type: z.literal('inbound_ack'), id: z.number().int(), ack }),
  z.object({ type: z.literal('shutdown') }),
]);

export const AdapterToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), canCall: z.boolean() }),
  z.object({ type: z.literal('inbound'), id: z.number().int(), envelope: z.unknown() }),
  /** A notice or request (`PlatformEvent`, validated by the host); answered by `inbound_ack` with the same id. */
  z.object({ type: z.literal('event'), id: z.number().int(), event: z.unknown() }),
  z.object({
    type: z.literal('status'),
    connected: z.boolean(),
    selfId: z.string().optional(),
    detail: z.string().optional(),
    accounts: z.array(z.object({ selfId: z.string(), connected: z.boolean(), detail: z.string().optional() })).optional(),
  }),
  z.object({ type: z.literal('input_closed') }),
  z.object({ type: z.literal('log'), record: z.record(z.string(), z.unknown()) }),
  /**
   * The answer to a `deliver` or `call`: `value` when `ok`, else `error` (a reason for a
   * person) and, for a delivery, what the failure means for the outbox (`failure`).
   */
  z.object({
    type: z.literal('result'),
    id: z.number().int(),
    ok: z.boolean(),
    value: z.unknown().optional(),
    error: z.string().optional(),
    failure: z.enum(['retry', 'in_doubt', 'refused']).optional(),
  }),
  /**
   * Sent the moment the adapter starts on a `deliver`: from here on the platform may get the
   * message, so if the process dies before its result, the delivery is in doubt, not retried.
   */
  z.object({ type: z.literal('accepted'), id: z.number().int() }),
  /** Sent just before the process exits on an error it could not recover from. */
  z.object({ type: z.literal('fatal'), error: z.string() }),
]);

export type HostToAdapter = z.input<typeof HostToAdapterSchema>;
export type AdapterToHost = z.input<typeof AdapterToHostSchema>;
export type AdapterToHostParsed = z.output<typeof AdapterToHostSchema>;
export type HostToAdapterParsed = z.output<typeof HostToAdapterSchema>;

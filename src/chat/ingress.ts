import { EventDecision } from '../kernel/event-bus/event-decision.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { Logger } from '../kernel/logger/logger.js';
import { rateLimitedLogOf } from '../kernel/logger/rate-limited-log.js';
import type { Clock } from '../kernel/time/clock.js';
import type { Database } from '../storage/database.js';
import type { StreamRecord } from '../storage/stream-repository.js';
import { capInboundEnvelope, DEFAULT_MAX_INBOUND_CHARS } from './cap-inbound-envelope.js';
import { type InboundEnvelope, InboundEnvelopeSchema, type ValidInboundEnvelope } from './inbound-envelope.js';
import type { Message } from './message.js';
import './message-events.js';
import { markRecalled } from './mark-recalled.js';
import { type GateVerdict, type InboundGates, PASS } from './inbound-gates.js';
import { describeError } from '../kernel/errors/describe-error.js';
import { chatOfEvent, parsePlatformEvent } from './platform-events.js';
import { StreamIds } from './stream-ids.js';
import type { StreamManager } from './stream-manager.js';

/** What became of one inbound envelope. */
export type IngressOutcome =
  | { readonly status: 'delivered'; readonly message: Message }
  /**
   * An on_message_received handler stopped it, or an inbound gate took it (`reason`: a
   * command, a guest, a rate limit): stored as read, no chatter sees it.
   */
  | { readonly status: 'stopped'; readonly message: Message; readonly reason?: string }
  | { readonly status: 'duplicate'; readonly streamId: string; readonly messageId: string }
  | { readonly status: 'invalid'; readonly reason: string };

/** What became of one notice or request. */
export type SystemEventOutcome = { readonly status: 'delivered'; readonly recalled?: boolean } | { readonly status: 'invalid'; readonly reason: string };

export interface IngressOptions {
  database: Database;
  streams: StreamManager;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /**
   * Longest inbound text kept, characters (`features.toml [chat] max_inbound_chars`); longer
   * text is cut with a visible mark and its raw frame is not stored. Default 20000.
   */
  maxInboundChars?: number;
  /** After a message is stored and delivered: wake the stream's loop, show it to plugins. */
  onDelivered: (message: Message) => void;
  /** Checks between `on_message_received` and storage (commands, guests, rate limits); none by default. */
  gates?: InboundGates;
}

/**
 * Turns an adapter's envelope into a stored message: validate, dedupe by message id,
 * `on_message_received`, store (unread unless a handler stopped it), then wake the stream.
 * When `receive` resolves, the message is in the database.
 */
export class Ingress {
  readonly #options: IngressOptions;
  readonly #streamIds: StreamIds;

  constructor(options: IngressOptions) {
    this.#options = options;
    this.#streamIds = new StreamIds(options.database);
  }

  async receive(input: InboundEnvelope, adapterSignature = 'unknown'): Promise<IngressOutcome> {
    const { database, bus, clock, logger, streams } = this.#options;
    const parsed = InboundEnvelopeSchema.safeParse(input);
    if (!parsed.success) {
      const reason = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(envelope)'}: ${issue.message}`).join('; ');
      rateLimitedLogOf(logger, clock).warn(`refused:${adapterSignature}`, { adapter: adapterSignature, reason }, 'refused an inbound envelope');
      return { status: 'invalid', reason };
    }
    const { envelope, caps } = capInboundEnvelope(parsed.data, this.#options.maxInboundChars ?? DEFAULT_MAX_INBOUND_CHARS);
    const now = clock.now() / 1000;
    const streamId = this.#streamIds.forInbound({
      platform: envelope.platform,
      account: envelope.account ?? null,
      chatType: envelope.chat_type,
      groupId: envelope.group?.id,
      userId: envelope.sender.id,
    });
    const messageId = envelope.message_id;
    if (database.messages.get(streamId, 'inbound', messageId) !== undefined) return { status: 'duplicate', streamId, messageId };
    if (caps.removedChars > 0 || caps.droppedAtUsers > 0 || caps.droppedMedia > 0 || caps.rawReplaced) {
      logger.info({ stream_id: streamId, message_id: messageId, adapter: adapterSignature, ...caps }, 'cut an over-long inbound message');
    }

    const record = streamRecord(envelope, streamId, now);
    const message = toMessage(envelope, streamId, now);
    const { decision } = await bus.publish('on_message_received', { stream_id: streamId, message, envelope, adapter_signature: adapterSignature });
    const gate: GateVerdict & { readonly gate?: string } = decision === EventDecision.STOP || this.#options.gates === undefined || this.#options.gates.size === 0 ? PASS : await this.#options.gates.admit(message);
    const delivered = decision !== EventDecision.STOP && gate.pass;

    let inserted = false;
    const store = () => {
      database.streams.upsert(record);
      inserted = database.messages.insertInbound(message) === 'inserted';
      if (inserted && !delivered) database.messages.markRead(streamId, [messageId]);
    };
    // Group commit: the messages arriving together share one commit; nothing goes on until it is durable.
    database.batch(store);
    if (!inserted) return { status: 'duplicate', streamId, messageId }; // a concurrent receive of the same id won
    try {
      await database.committed();
    } catch (error) {
      // Another write sank the batch (SQLite drops a whole transaction on a full disk): this
      // message is stored again on its own, or the error goes to the adapter's caller.
      logger.warn({ stream_id: streamId, message_id: messageId, error: describeError(error) }, 'storing an inbound message again on its own, after its write batch failed');
      database.transaction(store);
      if (!inserted) return { status: 'duplicate', streamId, messageId };
    }
    logger.debug({ stream_id: streamId, message_id: messageId, adapter: adapterSignature, delivered }, 'stored an inbound message');
    streams.noteInbound(record, message, delivered);
    if (!gate.pass) {
      if (gate.quiet !== true) logger.debug({ stream_id: streamId, message_id: messageId, gate: gate.gate, reason: gate.reason }, `a message was not passed to the chatter: ${gate.reason}`);
      this.#runAfterStored(gate, message);
      return { status: 'stopped', message, reason: gate.reason };
    }
    if (!delivered) return { status: 'stopped', message };
    this.#options.onDelivered(message);
    return { status: 'delivered', message };
  }
  #runAfterStored(gate: { readonly gate?: string; readonly afterStored?: () => void | Promise<void> }, message: Message): void {
    if (gate.afterStored === undefined) return;
    const failed = (error: unknown) =>
      this.#options.logger.error({ stream_id: message.streamId, message_id: message.messageId, gate: gate.gate, error: describeError(error) }, 'what an inbound gate does after storing failed');
    try {
      void Promise.resolve(gate.afterStored()).catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  /**
   * Takes a notice or request from an adapter: validates it, marks a recalled message
   * (`group_recall` / `friend_recall`), then publishes `on_notice` / `on_request` and resolves
   * once the handlers ran.
   */
  async receiveEvent(input: unknown, adapterSignature = 'unknown'): Promise<SystemEventOutcome> {
    const { database, bus, clock, logger, streams } = this.#options;
    const parsed = parsePlatformEvent(input);
    if (!parsed.ok) {
      rateLimitedLogOf(logger, clock).warn(`refused event:${adapterSignature}`, { adapter: adapterSignature, reason: parsed.reason }, 'refused a platform event');
      return { status: 'invalid', reason: parsed.reason };
    }
    const event = parsed.event;
    const chat = chatOfEvent(event);
    const streamId = chat === null ? null : this.#streamIds.lookup(chat);
    const origin = { platform: event.platform, self_id: event.self_id, time: event.time, stream_id: streamId, adapter_signature: adapterSignature };
    if (event.kind === 'request') {
      logger.debug({ ...origin, request_type: event.request.request_type }, 'platform request');
      await bus.publish('on_request', { ...origin, request: event.request });
      return { status: 'delivered' };
    }
    const notice = event.notice;
    let recalled: boolean | undefined;
    if ((notice.notice_type === 'group_recall' || notice.notice_type === 'friend_recall') && streamId !== null) {
      recalled = markRecalled(database, streams, streamId, notice.message_id);
      logger.debug({ stream_id: streamId, message_id: notice.message_id, found: recalled }, 'a message was recalled');
    }
    await bus.publish('on_notice', { ...origin, notice });
    return recalled === undefined ? { status: 'delivered' } : { status: 'delivered', recalled };
  }
}

/**
 * The stream's row as this message leaves it. Not read back first (a statement per message,
 * issue 20): the upsert keeps a stored stream's `createdAt`, and its names when the envelope
 * has none, so `createdAt` here is the stored one only for a new stream.
 */
function streamRecord(envelope: ValidInboundEnvelope, streamId: string, now: number): StreamRecord {
  const isGroup = envelope.chat_type === 'group';
  return {
    streamId,
    platform: envelope.platform,
    chatType: envelope.chat_type,
    groupId: isGroup ? envelope.group!.id : null,
    groupName: isGroup ? envelope.group!.name || null : null,
    userId: isGroup ? null : envelope.sender.id,
    userName: isGroup ? null : envelope.sender.name || null,
    createdAt: now,
    lastActiveAt: now,
    account: envelope.account ?? null,
  };
}

function toMessage(envelope: ValidInboundEnvelope, streamId: string, now: number): Message {
  return {
    messageId: envelope.message_id,
    streamId,
    direction: 'inbound',
    time: envelope.time ?? now,
    replyTo: envelope.reply_to,
    content: envelope.content,
    processedPlainText: envelope.content,
    messageType: envelope.message_type,
    senderId: envelope.sender.id,
    senderName: envelope.sender.name,
    senderCard: envelope.sender.card,
    senderRole: envelope.sender.role,
    platform: envelope.platform,
    chatType: envelope.chat_type,
    raw: envelope.raw ?? null,
    extra: {
      at_users: envelope.at_users,
      mentions_bot: envelope.mentions_bot,
      ...(envelope.media.length === 0 ? {} : { media: envelope.media }),
      ...(envelope.group === undefined ? {} : { group_id: envelope.group.id }),
      ...(envelope.account === undefined ? {} : { account: envelope.account }),
    },
  };
}

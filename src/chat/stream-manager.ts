import { describeError } from '../kernel/errors/describe-error.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import type { Database } from '../storage/database.js';
import type { StreamRecord } from '../storage/stream-repository.js';
import { ChatStream, HISTORY_IN_MEMORY } from './chat-stream.js';
import type { Message } from './message.js';
import './message-events.js';
import type { OutboundDelivery, OutboundMedia, OutboundSink } from './outbound-sink.js';
import { type FirstAttempt, Outbox, type RetryPolicy, type Settled } from './outbox.js';
import type { OutgoingMessage, SendOptions, SendOutcome, StreamApi } from './stream-api.js';

/** Who the bot is on each platform, for the messages it sends. */
export interface BotIdentity {
  name: string;
  /** The bot's account id per platform; `bot` when not configured. */
  accountFor(platform: string): string;
}

export interface StreamManagerOptions {
  database: Database;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  sink: () => OutboundSink;
  bot: BotIdentity;
  /** How long a reply may wait in the outbox for delivery (`bot.toml [chat] send_deadline_seconds`). Default 600 s. */
  sendDeadlineMs?: number;
  /** The outbox's retry timing (tests). */
  outboxRetry?: Partial<RetryPolicy>;
}

/**
 * The live streams over storage: activation (memory, else rebuilt from the database),
 * unread bookkeeping, and egress through the durable outbox. Storage is written first;
 * memory follows it.
 *
 * Reads are held during a chatter step (`holdReads`): what the chatter flushes leaves the
 * unread list in memory at once, but is written as read only together with the step's first
 * queued reply (one transaction), or when the step ends without a failure. A crash, a
 * timed-out or failed step before that leaves the messages unread in the database, so they
 * are answered (once) by the next run; a crash after it finds the reply in the outbox.
 */
export class StreamManager implements StreamApi {
  /** Replies waiting for the platform. */
  readonly outbox: Outbox;
  readonly #options: StreamManagerOptions;
  readonly #streams = new Map<string, ChatStream>();
  /** Streams in a chatter step: their flushes are held until a reply is queued or the step ends. */
  readonly #holding = new Set<string>();
  /** Flushed in memory, not yet written as read. */
  readonly #heldReads = new Map<string, Message[]>();
  #sent = 0;

  constructor(options: StreamManagerOptions) {
    this.#options = options;
    this.outbox = new Outbox({
      database: options.database,
      clock: options.clock,
      logger: options.logger,
      sink: options.sink,
      deadlineMs: options.sendDeadlineMs ?? 600_000,
      ...(options.outboxRetry === undefined ? {} : { retry: options.outboxRetry }),
      onSettled: (settled) => this.#onSettled(settled),
    });
  }

  activateStream(streamId: string): ChatStream | undefined {
    const live = this.#streams.get(streamId);
    if (live !== undefined) return live;
    try {
      const record = this.#options.database.streams.get(streamId);
      if (record === undefined) {
        this.#options.logger.warn({ stream_id: streamId }, 'cannot activate an unknown stream');
        return undefined;
      }
      const stream = streamFromRecord(record);
      for (const message of this.#options.database.messages.history(streamId, HISTORY_IN_MEMORY)) stream.remember(message as Message);
      stream.unreads.push(...(this.#options.database.messages.unread(streamId) as Message[]));
      this.#streams.set(streamId, stream);
      return stream;
    } catch (error) {
      this.#options.logger.error({ stream_id: streamId, error: describeError(error) }, 'activating the stream failed');
      return undefined;
    }
  }

  getStream(streamId: string): ChatStream | undefined {
    return this.#streams.get(streamId);
  }

  /** Stream ids held in memory. */
  activeStreamIds(): string[] {
    return [...this.#streams.keys()];
  }

  /** Nothing of the stream is in flight: no unread message, no held read, no reply being sent. */
  isQuiet(streamId: string): boolean {
    const stream = this.#streams.get(streamId);
    if (stream !== undefined && stream.unreads.length > 0) return false;
    return !this.#holding.has(streamId) && !this.#heldReads.has(streamId) && !this.outbox.isBusy(streamId);
  }

  /**
   * Drops from memory the streams with no activity since `idleSinceMs` (epoch ms) that are
   * quiet and that `canEvict` agrees to (the chat loop has no driver for them). Storage keeps
   * everything; `activateStream` rebuilds a stream on its next use. Returns how many left.
   */
  evictIdle(idleSinceMs: number, canEvict: (streamId: string) => boolean): number {
    let evicted = 0;
    for (const [streamId, stream] of this.#streams) {
      if (stream.lastActiveAt * 1000 >= idleSinceMs || !this.isQuiet(streamId) || !canEvict(streamId)) continue;
      this.#streams.delete(streamId);
      evicted += 1;
    }
    return evicted;
  }

  fetchUnreads(streamId: string): Message[] {
    return [...(this.activateStream(streamId)?.unreads ?? [])];
  }

  flushUnreads(streamId: string, messages: readonly Message[]): number {
    const ids = messages.map((message) => message.messageId);
    if (this.#holding.has(streamId)) return this.#holdFlush(streamId, ids);
    const moved = this.#options.database.messages.markRead(streamId, ids);
    const stream = this.#streams.get(streamId);
    if (stream !== undefined) {
      const flushed = new Set(ids);
      const keep = stream.unreads.filter((message) => !flushed.has(message.messageId));
      for (const message of stream.unreads) if (flushed.has(message.messageId)) stream.remember(message);
      stream.unreads.splice(0, stream.unreads.length, ...keep);
    }
    return moved;
  }

  /** A chatter step begins in the stream: its flushes are held (see the class comment). */
  holdReads(streamId: string): void {
    this.#holding.add(streamId);
  }

  /** The step ended well: what it flushed is written as read. */
  commitReads(streamId: string): void {
    this.#holding.delete(streamId);
    this.#writeHeldReads(streamId);
  }

  /**
   * The step failed or was abandoned before it queued a reply: what it flushed becomes
   * unread again (in memory; storage never saw it read), for the next run to answer.
   */
  releaseReads(streamId: string): void {
    this.#holding.delete(streamId);
    const held = this.#heldReads.get(streamId);
    this.#heldReads.delete(streamId);
    const stream = this.#streams.get(streamId);
    if (held === undefined || stream === undefined) return;
    const ids = new Set(held.map((message) => message.messageId));
    const history = stream.history.filter((message) => !(message.direction === 'inbound' && ids.has(message.messageId)));
    stream.history.splice(0, stream.history.length, ...history);
    const unreads = [...held, ...stream.unreads].sort((a, b) => a.time - b.time);
    stream.unreads.splice(0, stream.unreads.length, ...unreads);
  }

  /** Ingress's hook: a stored inbound message joins the live stream (unread, or history if stopped). */
  noteInbound(record: StreamRecord, message: Message, delivered: boolean): void {
    const stream = this.#streams.get(record.streamId);
    if (stream === undefined) {
      this.activateStream(record.streamId); // rebuilt from storage, which already holds the message
      return;
    }
    if (record.account !== undefined && record.account !== null) stream.account = record.account;
    stream.lastActiveAt = message.time;
    if (delivered) stream.unreads.push(message);
    else stream.remember(message);
  }

  /**
   * Replaces an inbound message's processed text (its images and videos described) in
   * storage and in the stream's working copy, unread or already in history. Returns whether
   * the message was found in storage.
   */
  updateInboundText(streamId: string, messageId: string, text: string): boolean {
    const stored = this.#options.database.messages.updateProcessedText(streamId, messageId, text);
    const stream = this.#streams.get(streamId);
    if (stream !== undefined) {
      for (const list of [stream.unreads, stream.history]) {
        const index = list.findIndex((message) => message.direction === 'inbound' && message.messageId === messageId);
        if (index >= 0) list[index] = { ...list[index]!, processedPlainText: text };
      }
    }
    return stored;
  }

  async send(streamId: string, outgoing: OutgoingMessage, options: SendOptions = {}): Promise<SendOutcome> {
    const { bus, clock, logger, bot } = this.#options;
    const stream = this.activateStream(streamId);
    if (stream === undefined) return { status: 'failed', reason: `unknown stream ${streamId}` };
    const draft: Message = {
      messageId: `pending-${++this.#sent}`,
      streamId,
      direction: 'outbound',
      time: clock.now() / 1000,
      replyTo: outgoing.replyTo ?? null,
      content: outgoing.content,
      processedPlainText: withMediaPlaceholders(outgoing.content, outgoing.media),
      messageType: outgoing.media === undefined || outgoing.media.length === 0 ? 'text' : 'mixed',
      senderId: stream.account ?? bot.accountFor(stream.platform),
      senderName: bot.name,
      senderCard: null,
      senderRole: null,
      platform: stream.platform,
      chatType: stream.chatType,
      raw: null,
      extra: {
        ...(outgoing.at ? { at_users: [outgoing.at] } : {}),
        ...(outgoing.media === undefined || outgoing.media.length === 0 ? {} : { media: outgoing.media.map((media) => ({ ...media })) }),
      },
    };
    const gate = await bus.publish('on_message_sent', { stream_id: streamId, message: draft, continue_send: true });
    if (gate.params.continue_send === false) return { status: 'cancelled', reason: 'an on_message_sent handler cancelled the send' };
    const signal = options.signal;
    if (signal?.aborted === true) return { status: 'cancelled', reason: 'the run that asked for it has ended' };
    const message: Message = { ...draft, ...(gate.params.message as Partial<Message>), streamId, direction: 'outbound' as const };
    const delivery: OutboundDelivery = {
      streamId,
      platform: stream.platform,
      chatType: stream.chatType,
      groupId: stream.group?.id ?? null,
      userId: stream.user?.id ?? null,
      content: message.content,
      replyTo: message.replyTo,
      at: outgoing.at ?? null,
      ...(outgoing.media === undefined || outgoing.media.length === 0 ? {} : { media: outgoing.media.map((media) => ({ ...media })) }),
      account: stream.account,
    };
    let firstAttempt: Promise<FirstAttempt>;
    let outboxId: number;
    try {
      ({ firstAttempt, outboxId } = this.outbox.add(
        { streamId, message, delivery, dueAt: clock.now() + Math.max(0, options.delayMs ?? 0) },
        () => this.#writeHeldReads(streamId),
      ));
    } catch (error) {
      logger.error({ stream_id: streamId, error: describeError(error) }, 'the reply could not be queued; nothing was sent');
      return { status: 'failed', reason: describeError(error) };
    }
    if (signal === undefined) return firstAttempt;
    return new Promise<SendOutcome>((resolve) => {
      const onAbort = (): void => resolve({ status: 'queued', reason: 'the run ended before delivery; the reply stays in the outbox', outboxId });
      signal.addEventListener('abort', onAbort, { once: true });
      void firstAttempt.then((attempt) => {
        signal.removeEventListener('abort', onAbort);
        resolve(attempt);
      });
    });
  }

  /** Flushes in memory only, keeping the ids to write later; returns how many were unread. */
  #holdFlush(streamId: string, ids: readonly string[]): number {
    const stream = this.activateStream(streamId);
    if (stream === undefined) return 0;
    const flushed = new Set(ids);
    const moved = stream.unreads.filter((message) => flushed.has(message.messageId));
    const keep = stream.unreads.filter((message) => !flushed.has(message.messageId));
    for (const message of moved) stream.remember(message);
    stream.unreads.splice(0, stream.unreads.length, ...keep);
    if (moved.length > 0) this.#heldReads.set(streamId, [...(this.#heldReads.get(streamId) ?? []), ...moved]);
    return moved.length;
  }

  /** Writes the held flushes of a stream as read (inside a reply's transaction, or at the step's end). */
  #writeHeldReads(streamId: string): void {
    const held = this.#heldReads.get(streamId);
    if (held === undefined) return;
    this.#options.database.messages.markRead(
      streamId,
      held.map((message) => message.messageId),
    );
    this.#heldReads.delete(streamId);
  }

  #onSettled(settled: Settled): void {
    this.#streams.get(settled.message.streamId)?.remember(settled.message);
  }
}

const MEDIA_PLACEHOLDER: Readonly<Record<OutboundMedia['kind'], string>> = { image: '[图片]', record: '[语音]', video: '[视频]' };

/** The text the bot's own message shows in later prompts: its words, then a placeholder per picture or clip it sent. */
function withMediaPlaceholders(content: string, media: readonly OutboundMedia[] | undefined): string {
  if (media === undefined || media.length === 0) return content;
  return [content, ...media.map((item) => MEDIA_PLACEHOLDER[item.kind])].filter((part) => part !== '').join(' ');
}

function streamFromRecord(record: StreamRecord): ChatStream {
  return new ChatStream({
    streamId: record.streamId,
    platform: record.platform,
    chatType: record.chatType,
    group: record.groupId === null ? null : { id: record.groupId, name: record.groupName ?? '' },
    user: record.userId === null ? null : { id: record.userId, name: record.userName ?? '' },
    lastActiveAt: record.lastActiveAt,
    account: record.account ?? null,
  });
}

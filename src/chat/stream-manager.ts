import { describeError } from '../kernel/errors/describe-error.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import type { Database } from '../storage/database.js';
import type { StreamRecord } from '../storage/stream-repository.js';
import { ChatStream, HISTORY_IN_MEMORY } from './chat-stream.js';
import type { Message } from './message.js';
import './message-events.js';
import type { OutboundSink } from './outbound-sink.js';
import type { OutgoingMessage, SendOutcome, StreamApi } from './stream-api.js';

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
}

/**
 * The live streams over storage: activation (memory, else rebuilt from the database),
 * unread bookkeeping, and egress. Storage is written first; memory follows it.
 */
export class StreamManager implements StreamApi {
  readonly #options: StreamManagerOptions;
  readonly #streams = new Map<string, ChatStream>();
  #sent = 0;

  constructor(options: StreamManagerOptions) {
    this.#options = options;
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

  fetchUnreads(streamId: string): Message[] {
    return [...(this.activateStream(streamId)?.unreads ?? [])];
  }

  flushUnreads(streamId: string, messages: readonly Message[]): number {
    const ids = messages.map((message) => message.messageId);
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

  /** Ingress's hook: a stored inbound message joins the live stream (unread, or history if stopped). */
  noteInbound(record: StreamRecord, message: Message, delivered: boolean): void {
    const stream = this.#streams.get(record.streamId);
    if (stream === undefined) {
      this.activateStream(record.streamId); // rebuilt from storage, which already holds the message
      return;
    }
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

  async send(streamId: string, outgoing: OutgoingMessage): Promise<SendOutcome> {
    const { bus, clock, logger, database, bot } = this.#options;
    const stream = this.activateStream(streamId);
    if (stream === undefined) return { status: 'failed', reason: `unknown stream ${streamId}` };
    const draft: Message = {
      messageId: `pending-${++this.#sent}`,
      streamId,
      direction: 'outbound',
      time: clock.now() / 1000,
      replyTo: outgoing.replyTo ?? null,
      content: outgoing.content,
      processedPlainText: outgoing.content,
      messageType: 'text',
      senderId: bot.accountFor(stream.platform),
      senderName: bot.name,
      senderCard: null,
      senderRole: null,
      platform: stream.platform,
      chatType: stream.chatType,
      raw: null,
      extra: outgoing.at ? { at_users: [outgoing.at] } : {},
    };
    const gate = await bus.publish('on_message_sent', { stream_id: streamId, message: draft, continue_send: true });
    if (gate.params.continue_send === false) return { status: 'cancelled', reason: 'an on_message_sent handler cancelled the send' };
    const message = { ...draft, ...(gate.params.message as Partial<Message>), streamId, direction: 'outbound' as const };
    try {
      const { messageId } = await this.#options.sink().deliver({
        streamId,
        platform: stream.platform,
        chatType: stream.chatType,
        groupId: stream.group?.id ?? null,
        userId: stream.user?.id ?? null,
        content: message.content,
        replyTo: message.replyTo,
        at: outgoing.at ?? null,
      });
      const sent: Message = { ...message, messageId };
      database.messages.insertOutbound(sent);
      stream.remember(sent);
      return { status: 'sent', message: sent };
    } catch (error) {
      logger.error({ stream_id: streamId, error: describeError(error) }, 'sending the message failed');
      return { status: 'failed', reason: describeError(error) };
    }
  }
}

function streamFromRecord(record: StreamRecord): ChatStream {
  return new ChatStream({
    streamId: record.streamId,
    platform: record.platform,
    chatType: record.chatType,
    group: record.groupId === null ? null : { id: record.groupId, name: record.groupName ?? '' },
    user: record.userId === null ? null : { id: record.userId, name: record.userName ?? '' },
    lastActiveAt: record.lastActiveAt,
  });
}

import { describeError } from '../kernel/errors/describe-error.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import type { Database } from '../storage/database.js';
import type { StreamRecord } from '../storage/stream-repository.js';
import { ChatStream, HISTORY_IN_MEMORY } from './chat-stream.js';
import type { Message } from './message.js';
import './message-events.js';
import { RECALLED_MARK } from './recalled-mark.js';
import type { OutboundDelivery, OutboundMedia, OutboundSink } from './outbound-sink.js';
import { type FirstAttempt, Outbox, type RetryPolicy, type Settled } from './outbox.js';
import type { ListStreamsOptions, OutgoingMessage, SendOptions, SendOutcome, StreamApi, StreamSummary } from './stream-api.js';

/** Who the bot is on each platform, for the messages it sends. */
export interface BotIdentity {
  name: string;
  /** The name the bot goes by on an account (`bot.toml [accounts."<id>"] nickname`); `name` when absent. */
  nameFor?(account: string | null): string;
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
  /** Per stream: what the bot's next reply there answers (see `#noteAnswering`). */
  readonly #answering = new Map<string, Answering>();
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
      this.#answering.delete(streamId);
      evicted += 1;
    }
    return evicted;
  }

  fetchUnreads(streamId: string): Message[] {
    return [...(this.activateStream(streamId)?.unreads ?? [])];
  }

  flushUnreads(streamId: string, messages: readonly Message[]): number {
    const ids = messages.map((message) => message.messageId);
    this.#noteAnswering(streamId, ids);
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
    // A message recalled during the step stays read: it is not answered by the next run either.
    const back = held.filter((message) => !this.#isRecalled(streamId, message.messageId));
    const ids = new Set(back.map((message) => message.messageId));
    const history = stream.history.filter((message) => !(message.direction === 'inbound' && ids.has(message.messageId)));
    stream.history.splice(0, stream.history.length, ...history);
    const unreads = [...back, ...stream.unreads].sort((a, b) => a.time - b.time);
    stream.unreads.splice(0, stream.unreads.length, ...unreads);
  }

  /** Ingress's hook: a stored inbound message joins the live stream (unread, or history if stopped). */
  noteInbound(record: StreamRecord, message: Message, delivered: boolean): void {
    const stream = this.#streams.get(record.streamId);
    if (stream === undefined) {
      this.activateStream(record.streamId); // rebuilt from storage, which already holds the message
      return;
    }
    if (stream.account === null && record.account !== undefined && record.account !== null) stream.account = record.account;
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
    return this.#updateText(streamId, 'inbound', messageId, text);
  }

  /** Replaces the processed text of one of the bot's own messages (a recall marked), in storage and memory. */
  updateOutboundText(streamId: string, messageId: string, text: string): boolean {
    return this.#updateText(streamId, 'outbound', messageId, text);
  }

  #updateText(streamId: string, direction: 'inbound' | 'outbound', messageId: string, text: string): boolean {
    const stored = this.#options.database.messages.updateProcessedText(streamId, messageId, text, direction);
    const stream = this.#streams.get(streamId);
    if (stream !== undefined) {
      for (const list of [stream.unreads, stream.history]) {
        const index = list.findIndex((message) => message.direction === direction && message.messageId === messageId);
        if (index >= 0) list[index] = { ...list[index]!, processedPlainText: text };
      }
    }
    return stored;
  }

  /**
   * A recalled message leaves the unread list at once (read, not answered, and not held by
   * a running step), and every queued reply that answers only recalled messages is
   * withdrawn. The caller has marked the message's text (`markRecalled`).
   */
  noteRecalled(streamId: string, messageId: string): void {
    const stream = this.#streams.get(streamId);
    const index = stream?.unreads.findIndex((message) => message.messageId === messageId) ?? -1;
    if (stream !== undefined && index >= 0) stream.remember(stream.unreads.splice(index, 1)[0]!);
    this.#options.database.messages.markRead(streamId, [messageId]);
    const recalled = (ids: readonly string[]) => ids.length > 0 && ids.every((id) => this.#isRecalled(streamId, id));
    const withdrawn = this.outbox.withdraw(streamId, (message) => {
      const answers = message.extra['answers'];
      return Array.isArray(answers) && recalled(answers as string[]) ? 'the messages it answers were recalled' : undefined;
    });
    if (withdrawn > 0) this.#options.logger.info({ stream_id: streamId, message_id: messageId, withdrawn }, 'withdrew queued replies to a recalled message');
  }

  async send(streamId: string, outgoing: OutgoingMessage, options: SendOptions = {}): Promise<SendOutcome> {
    const { bus, clock, logger, bot } = this.#options;
    const stream = this.activateStream(streamId);
    if (stream === undefined) return { status: 'failed', reason: `unknown stream ${streamId}` };
    const answers = this.#takeAnswering(streamId);
    if (answers.length > 0 && answers.every((id) => this.#isRecalled(streamId, id))) {
      logger.info({ stream_id: streamId, answers }, 'a reply was not sent: the messages it answers were recalled');
      return { status: 'cancelled', reason: 'the messages it answers were recalled' };
    }
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
      senderName: bot.nameFor?.(stream.account) ?? bot.name,
      senderCard: null,
      senderRole: null,
      platform: stream.platform,
      chatType: stream.chatType,
      raw: null,
      extra: {
        ...(outgoing.at ? { at_users: [outgoing.at] } : {}),
        ...(outgoing.media === undefined || outgoing.media.length === 0 ? {} : { media: outgoing.media.map(storedMedia) }),
        ...(answers.length === 0 ? {} : { answers }),
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

  listStreams(options: ListStreamsOptions = {}): StreamSummary[] {
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`StreamApi.listStreams: limit must be a non-negative integer, got ${limit}`);
    // A stream's stored `lastActiveAt` follows its received messages and the bot's own (the
    // outbox touches it as a reply is stored).
    const activeSince = options.activeSince === undefined ? undefined : Math.floor(options.activeSince / 1000);
    const summaries: StreamSummary[] = [];
    for (const record of this.#options.database.streams.list({ limit: MAX_LISTED_STREAMS, ...(activeSince === undefined ? {} : { activeSince }) })) {
      if (options.chatType !== undefined && record.chatType !== options.chatType) continue;
      const lastActiveAt = Math.round(record.lastActiveAt * 1000);
      if (options.activeSince !== undefined && lastActiveAt < options.activeSince) continue;
      summaries.push({ streamId: record.streamId, platform: record.platform, chatType: record.chatType, groupId: record.groupId, account: record.account ?? null, lastActiveAt });
    }
    return summaries.slice(0, limit); // most recently active first, as the repository lists them
  }

  /**
   * A chatter marked these messages handled: the bot's next reply answers them (and the
   * ones handled since its last reply). After a reply, the next flush starts a new batch.
   */
  #noteAnswering(streamId: string, ids: readonly string[]): void {
    if (ids.length === 0) return;
    const current = this.#answering.get(streamId);
    const answering = current === undefined || current.replied ? { ids: new Set<string>(), replied: false, overflow: false } : current;
    for (const id of ids) answering.ids.add(id);
    // A long silence: the batch is no longer told apart; such a reply is never withdrawn.
    if (answering.ids.size > MAX_ANSWERING) {
      answering.ids.clear();
      answering.overflow = true;
    }
    this.#answering.set(streamId, answering);
  }

  /** The ids the reply being sent answers; empty when unknown. */
  #takeAnswering(streamId: string): string[] {
    const answering = this.#answering.get(streamId);
    if (answering === undefined) return [];
    answering.replied = true;
    return answering.overflow ? [] : [...answering.ids];
  }

  /** The stored inbound message carries the recall mark (memory first, then storage). */
  #isRecalled(streamId: string, messageId: string): boolean {
    const stream = this.#streams.get(streamId);
    const live = stream?.history.findLast((message) => message.direction === 'inbound' && message.messageId === messageId);
    const text = live?.processedPlainText ?? this.#options.database.messages.get(streamId, 'inbound', messageId)?.processedPlainText;
    return text !== undefined && text.startsWith(RECALLED_MARK);
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

/** What a stream's next reply answers: the messages handled since the bot last replied there. */
interface Answering {
  ids: Set<string>;
  /** A reply was sent since: the next flush starts a new batch. */
  replied: boolean;
  /** More than MAX_ANSWERING were handled without a reply. */
  overflow: boolean;
}

/** Most stored streams `listStreams` reads. */
const MAX_LISTED_STREAMS = 10_000;

/** Most message ids a reply is known to answer (a group the bot watched for long without speaking). */
const MAX_ANSWERING = 200;

const MEDIA_PLACEHOLDER: Readonly<Record<OutboundMedia['kind'], string>> = { image: '[图片]', record: '[语音]', video: '[视频]' };

/**
 * What the stored message keeps of a picture or clip it sent: its URL or path, but inline
 * data only by its size (the delivery carries the data; history and memory need not).
 */
function storedMedia(media: OutboundMedia): OutboundMedia {
  if (!media.file.startsWith('base64://')) return { ...media };
  const bytes = Math.floor(((media.file.length - 'base64://'.length) * 3) / 4);
  return { kind: media.kind, file: `base64 (${bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KiB`})` };
}

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

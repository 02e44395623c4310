import type { ChatStream } from './chat-stream.js';
import type { Message } from './message.js';
import type { OutboundMedia } from './outbound-sink.js';

/** What a chatter or action asks to send. */
export interface OutgoingMessage {
  /** The text to send, as plain text (the OneBot adapter does not parse CQ codes in it); may be empty when `media` is given. */
  content: string;
  /** Quote this message. */
  replyTo?: string | null;
  /** @-mention this user (groups only). */
  at?: string | null;
  /** Pictures, voice clips or videos to send with (after) the text; `content` may then be empty. */
  media?: readonly OutboundMedia[];
}

/**
 * How a send ended: delivered (with the platform's id); queued (durable in the outbox, not
 * delivered yet, e.g. while the platform is disconnected: it is sent when the connection is
 * back, up to `send_deadline_seconds`); cancelled by a handler; or failed (refused by the
 * platform, or past its deadline).
 */
export type SendOutcome =
  | {
      /** The platform took it (or may have: a delivery in doubt counts as sent). */
      readonly status: 'sent';
      /** The message as stored; `messageId` is the platform's, or `unconfirmed-<outbox id>` for one in doubt. */
      readonly message: Message;
    }
  | {
      /** Not delivered yet; it stays in the outbox and is tried again. */
      readonly status: 'queued';
      /** Why it is not delivered yet (the adapter is down, the host is stopping, the caller stopped waiting …). */
      readonly reason: string;
      /** Its outbox row, the same across retries and restarts. */
      readonly outboxId: number;
    }
  | {
      /** Not sent, on purpose. */
      readonly status: 'cancelled';
      /** Who stopped it: an `on_message_sent` handler, a recall of what it answered, the caller's aborted signal. */
      readonly reason: string;
    }
  | {
      /** Not sent and not queued: the stream is unknown, queueing failed, the platform refused, or the deadline passed. */
      readonly status: 'failed';
      /** What went wrong, in words for the log. */
      readonly reason: string;
    };

/** How to send. */
export interface SendOptions {
  /**
   * Hold the message this long before it goes out (a typing delay). The reply is durable in
   * the outbox from the moment `send` is called, so a crash during the delay loses nothing.
   */
  delayMs?: number;
  /**
   * The caller's run signal: aborted before the reply is queued, nothing is sent; aborted
   * after, `send` stops waiting (the queued reply still goes out).
   */
  signal?: AbortSignal;
}

/** The filter and limit of `StreamApi.listStreams`. */
export interface ListStreamsOptions {
  /** Only private chats or only groups; default both. */
  chatType?: 'private' | 'group';
  /** Only streams active at or after this, epoch ms. */
  activeSince?: number;
  /** Most streams returned (a non-negative integer); default 100. */
  limit?: number;
}

/** A stored conversation with the time of its last activity (`StreamApi.listStreams`). */
export interface StreamSummary {
  /** The conversation's id, for {@link StreamApi} calls. */
  readonly streamId: string;
  /** The adapter's platform name (`qq`, `console` …). */
  readonly platform: string;
  /** A group chat or a one-to-one chat. */
  readonly chatType: 'private' | 'group';
  /** Set for group streams, else null. */
  readonly groupId: string | null;
  /** The bot account the conversation belongs to; null: unknown. */
  readonly account: string | null;
  /** Epoch ms of the newest message either way: received, or sent by the bot. */
  readonly lastActiveAt: number;
}

/** The stream API chatters and actions use; the host's StreamManager implements it. */
export interface StreamApi {
  /** The live stream, from memory or rebuilt from storage; `undefined` (logged) when it cannot be. */
  activateStream(streamId: string): ChatStream | undefined;
  /** The live stream if it is in memory. */
  getStream(streamId: string): ChatStream | undefined;
  /** The stream's unread messages, oldest first (a copy: reading does not flush). */
  fetchUnreads(streamId: string): Message[];
  /** Moves exactly these messages from unread to history; returns how many moved. */
  flushUnreads(streamId: string, messages: readonly Message[]): number;
  /**
   * Sends through egress: `on_message_sent` (a handler may cancel), the durable outbox (the
   * stream's unreads this step marked read are committed with it), the adapter, storage.
   * Resolves when the first attempt at delivery ended.
   */
  send(streamId: string, message: OutgoingMessage, options?: SendOptions): Promise<SendOutcome>;
  /** Stored conversations (in memory or not), most recently active first; the bot's own replies count as activity. */
  listStreams(options?: ListStreamsOptions): StreamSummary[];
}

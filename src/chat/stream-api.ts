import type { ChatStream } from './chat-stream.js';
import type { Message } from './message.js';

/** What a chatter or action asks to send. */
export interface OutgoingMessage {
  content: string;
  /** Quote this message. */
  replyTo?: string | null;
  /** @-mention this user (groups only). */
  at?: string | null;
}

/** How a send ended: delivered (with the platform's id), cancelled by a handler, or failed. */
export type SendOutcome =
  | { readonly status: 'sent'; readonly message: Message }
  | { readonly status: 'cancelled'; readonly reason: string }
  | { readonly status: 'failed'; readonly reason: string };

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
  /** Sends through egress: `on_message_sent` (a handler may cancel), the adapter, storage. */
  send(streamId: string, message: OutgoingMessage): Promise<SendOutcome>;
}

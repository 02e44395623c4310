import type { ChatType, Message } from './message.js';

/** Messages kept in memory per stream for prompts; older ones stay in storage only. */
export const HISTORY_IN_MEMORY = 50;

/**
 * One conversation, live in memory: who it is with, the unread messages a chatter has not
 * handled yet, and recent history. Storage holds the truth; this is its working copy.
 */
export class ChatStream {
  /** The conversation's id (see `streamIdFor`): the key for every stream API call. */
  readonly streamId: string;
  /** The adapter's platform name (`qq`, `console` …). */
  readonly platform: string;
  /** `group` for a group chat (then `group` is set), `private` for a one-to-one chat (then `user` is). */
  readonly chatType: ChatType;
  /** The group, in a group chat; null in a private one. */
  readonly group: {
    /** The platform's group id (OneBot: the group number, as a string). */
    id: string;
    /** The group's name as last received; empty when the platform never gave one. */
    name: string;
  } | null;
  /** The other person, in a private chat; null in a group. */
  readonly user: {
    /** The platform's user id (OneBot: the QQ number, as a string). */
    id: string;
    /** Their nickname as last received; may be empty. */
    name: string;
  } | null;
  /**
   * Received messages no chatter has handled yet, oldest first. Read them through
   * `StreamApi.fetchUnreads` and move them with `flushUnreads` rather than editing this array.
   */
  readonly unreads: Message[] = [];
  /**
   * Recent handled messages, both directions, oldest first; at most `HISTORY_IN_MEMORY` (50).
   * Their `raw` is null here: the adapter's payload stays in the database
   * (`database.messages`), since 50 of them per open chat were most of the host's live memory.
   */
  readonly history: Message[] = [];
  /**
   * Epoch seconds of the latest activity: loaded from storage when the stream is built, then
   * moved by each received message (the bot's own sends move only the stored value).
   */
  lastActiveAt: number;
  /**
   * The bot account the conversation belongs to (OneBot: a connection's self id); replies
   * and actions go out on it only. Null: an adapter without accounts (the console).
   */
  account: string | null;

  constructor(init: {
    streamId: string;
    platform: string;
    chatType: ChatType;
    group?: { id: string; name: string } | null;
    user?: { id: string; name: string } | null;
    lastActiveAt: number;
    account?: string | null;
  }) {
    this.streamId = init.streamId;
    this.platform = init.platform;
    this.chatType = init.chatType;
    this.group = init.group ?? null;
    this.user = init.user ?? null;
    this.lastActiveAt = init.lastActiveAt;
    this.account = init.account ?? null;
  }

  /** Adds to history, keeping the newest HISTORY_IN_MEMORY. */
  remember(message: Message): void {
    this.history.push(message.raw === null || message.raw === undefined ? message : { ...message, raw: null });
    if (this.history.length > HISTORY_IN_MEMORY) this.history.splice(0, this.history.length - HISTORY_IN_MEMORY);
  }
}

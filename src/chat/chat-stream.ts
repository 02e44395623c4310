import type { ChatType, Message } from './message.js';

/** Messages kept in memory per stream for prompts; older ones stay in storage only. */
export const HISTORY_IN_MEMORY = 50;

/**
 * One conversation, live in memory: who it is with, the unread messages a chatter has not
 * handled yet, and recent history. Storage holds the truth; this is its working copy.
 */
export class ChatStream {
  readonly streamId: string;
  readonly platform: string;
  readonly chatType: ChatType;
  readonly group: { id: string; name: string } | null;
  readonly user: { id: string; name: string } | null;
  readonly unreads: Message[] = [];
  readonly history: Message[] = [];
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
    this.history.push(message);
    if (this.history.length > HISTORY_IN_MEMORY) this.history.splice(0, this.history.length - HISTORY_IN_MEMORY);
  }
}

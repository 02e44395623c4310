export type ChatType = 'private' | 'group';

/** Extras carried with a message; adapters may add more keys. */
export interface MessageExtra {
  /** User ids @-mentioned in the message. */
  at_users?: string[];
  /** True when the bot itself was @-mentioned (or replied to). */
  mentions_bot?: boolean;
  group_id?: string;
  [key: string]: unknown;
}

/** One chat message, inbound or sent by the bot. Times are epoch seconds. */
export interface Message {
  messageId: string;
  streamId: string;
  direction: 'inbound' | 'outbound';
  time: number;
  /** The message this one replies to. */
  replyTo: string | null;
  /** The text as received (segments flattened by the adapter). */
  content: string;
  /** The text the model sees (media described, mentions resolved). */
  processedPlainText: string;
  messageType: string;
  senderId: string;
  senderName: string;
  senderCard: string | null;
  senderRole: string | null;
  platform: string;
  chatType: ChatType;
  /** The adapter's original payload. */
  raw: unknown;
  extra: MessageExtra;
}

/** One chat message, received (`inbound`) or sent by the bot (`outbound`). */
export interface MessageRecord {
  /** The platform's id; unique per stream and direction. */
  messageId: string;
  /** The conversation it belongs to (see `streamIdFor`). */
  streamId: string;
  /** `inbound`: received from someone; `outbound`: sent by the bot. */
  direction: 'inbound' | 'outbound';
  /** When the message was sent, epoch seconds (fractions allowed). */
  time: number;
  /** Id of the message this one replies to, if any. */
  replyTo: string | null;
  /** The message as the platform sent it (segments rendered to text, CQ codes kept). */
  content: string;
  /** Plain text for prompts: content with media described and codes removed. */
  processedPlainText: string;
  /**
   * What the message is, in the adapter's words: `text` by default, `image` when it is only
   * pictures (OneBot), `mixed` for the bot's own text with media.
   */
  messageType: string;
  /** The platform's id of the sender (OneBot: the QQ number); the bot's own account for outbound messages. */
  senderId: string;
  /** The sender's nickname. */
  senderName: string;
  /** The sender's group card (display name inside the group), if any. */
  senderCard: string | null;
  /** The sender's role in the group (`owner`, `admin`, `member`), if any. */
  senderRole: string | null;
  /** The adapter's platform name (`qq`, `console` …). */
  platform: string;
  /** A group chat or a one-to-one chat. */
  chatType: 'private' | 'group';
  /**
   * The adapter's original payload. Stored as JSON; a value JSON cannot represent
   * (a cycle, a BigInt, a throwing getter) is stored as null and read back as null.
   */
  raw: unknown;
  /** Extra fields (`group_id`, `at_users`, `format_info` ...). Stored as JSON; read back as `{}` if it could not be stored. */
  extra: Record<string, unknown>;
}

/** Stored messages and their unread flags. The SQLite implementation is `SqliteMessageRepository`. */
export interface MessageRepository {
  /**
   * Stores a received message as unread. A message already stored for the same stream and
   * id changes nothing and gives `'duplicate'` (adapters resend on reconnect).
   */
  insertInbound(record: MessageRecord): 'inserted' | 'duplicate';
  /** Stores a message the bot sent; it is never unread. A repeated id is ignored. */
  insertOutbound(record: MessageRecord): void;
  /** The stream's unread messages, oldest first. */
  unread(streamId: string): MessageRecord[];
  /**
   * Replaces a message's processed text (image and video placeholders filled in by their
   * descriptions, a recall marked); inbound unless `direction` says otherwise. Returns
   * whether the message exists.
   */
  updateProcessedText(streamId: string, messageId: string, text: string, direction?: 'inbound' | 'outbound'): boolean;
  /** Marks exactly these inbound messages read; returns how many were unread before. */
  markRead(streamId: string, messageIds: readonly string[]): number;
  /**
   * The newest `limit` messages of the stream's history (read inbound and all outbound),
   * oldest first.
   */
  history(streamId: string, limit: number): MessageRecord[];
  /** Ids of the streams that have unread messages, the one waiting longest first. */
  streamsWithUnread(): string[];
  /** One stored message by its stream, direction and platform id; undefined when there is none. */
  get(streamId: string, direction: 'inbound' | 'outbound', messageId: string): MessageRecord | undefined;
  /** How many messages of each direction have a `time` at or after `epochSeconds`. */
  countSince(epochSeconds: number): { inbound: number; outbound: number };
  /**
   * Deletes the messages whose `time` is before `epochSeconds`, except unread ones (a
   * chatter has not seen them yet); returns how many were deleted. For retention.
   */
  deleteReadBefore(epochSeconds: number): number;
}

/** A chat stream (one private chat or one group on one platform) as stored. */
export interface StreamRecord {
  /** sha256 of the platform, account and chat (see `streamIdFor`); computed by the chat layer. */
  streamId: string;
  platform: string;
  chatType: 'private' | 'group';
  /** Set for group streams, else null. */
  groupId: string | null;
  groupName: string | null;
  /** The other side of a private stream, else null. */
  userId: string | null;
  userName: string | null;
  /** When the stream was first stored, epoch seconds. Never changed by `upsert`. */
  createdAt: number;
  /** Time of the last activity, epoch seconds (the unit of message times). */
  lastActiveAt: number;
  /**
   * The bot account the conversation belongs to (OneBot: the connection's self id); its
   * replies go out on it. Null or absent: unknown (the adapter's default). Once stored it
   * never changes: `upsert` keeps it, and sets it only on a stream that has none.
   */
  account?: string | null;
}

/** The filter and limit of `StreamRepository.list`. */
export interface StreamListOptions {
  /** Most streams returned; a non-negative integer. */
  limit: number;
  /** Only streams whose `lastActiveAt` is at or after this, epoch seconds. */
  activeSince?: number;
}

/** Stored streams. The SQLite implementation is `SqliteStreamRepository`. */
export interface StreamRepository {
  /**
   * Stores a stream, or updates a stored one: `lastActiveAt` and the group and user names
   * follow `record` (a null name keeps the stored one, since a platform does not always send
   * names); `createdAt`, platform, chat type and ids keep their first values.
   */
  upsert(record: StreamRecord): void;
  /** The stored stream with this id; `undefined` when none is stored. */
  get(streamId: string): StreamRecord | undefined;
  /** Streams, most recently active first (ties by id). */
  list(options: StreamListOptions): StreamRecord[];
  /**
   * Gives a stream without an account to `account`; false when the stream is unknown or
   * already has one (which it keeps).
   */
  claim(streamId: string, account: string): boolean;
  /**
   * Moves `lastActiveAt` forward to `at` (epoch seconds), never back (the bot's reply stored
   * after a later inbound one keeps the later time); does nothing for an unknown stream.
   */
  touch(streamId: string, at: number): void;
}

/**
 * One reply in the outbox: decided by the chatter, not yet acknowledged by the platform.
 * `message` and `delivery` are the chat layer's objects, stored as JSON; the storage layer
 * does not look inside them. Times are epoch milliseconds.
 */
export interface OutboxEntry {
  /** Unique for ever (never reused), stable across retries and restarts. */
  rowId: number;
  streamId: string;
  /** The bot account to send on, if known. */
  account: string | null;
  message: unknown;
  delivery: unknown;
  createdAt: number;
  /** Not sent before this moment (the typing delay ends). */
  dueAt: number;
  /** Dropped, with a warning, when still undelivered at this moment. */
  deadlineAt: number;
  /** Delivery attempts that failed so far. */
  attempts: number;
  /** Why the last attempt failed. */
  lastError: string | null;
  /** Set when an attempt went out and no answer came (epoch ms of that attempt): check before sending again. */
  inDoubtAt: number | null;
}

export type NewOutboxEntry = Omit<OutboxEntry, 'rowId' | 'attempts' | 'lastError' | 'inDoubtAt'> & {
  /** Stored already marked in doubt since this moment: it goes out at once (see `Outbox.add`). */
  inDoubtAt?: number | null;
};

/** The durable outbox. The SQLite implementation is `SqliteOutboxRepository`. */
export interface OutboxRepository {
  /** Stores a pending reply; returns its row id. */
  add(entry: NewOutboxEntry): number;
  /** Every pending reply, oldest first. */
  all(): OutboxEntry[];
  /** A stream's pending replies, oldest first. */
  forStream(streamId: string): OutboxEntry[];
  /** A stream's oldest pending reply (the next to send). */
  headOf(streamId: string): OutboxEntry | undefined;
  /** How many replies a stream has pending. */
  countFor(streamId: string): number;
  /** Streams that have pending replies. */
  streams(): string[];
  get(rowId: number): OutboxEntry | undefined;
  /** Counts a failed attempt and keeps its reason. */
  recordFailure(rowId: number, reason: string): void;
  /** Marks a reply in doubt since `at` (or clears the mark with null). */
  setInDoubt(rowId: number, at: number | null, reason?: string): void;
  /** Removes a reply (delivered or dropped); returns whether it was there. */
  remove(rowId: number): boolean;
  count(): number;
}

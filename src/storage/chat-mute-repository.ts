/** One chat muted by an owner's `/mute`. */
export interface ChatMuteRecord {
  streamId: string;
  /** Epoch milliseconds when the mute ends. */
  untilMs: number;
  /** Who muted it (platform user id); null when not known. */
  mutedBy: string | null;
  /** Epoch milliseconds when it was muted. */
  createdAt: number;
}

/**
 * Persisted mutes, one per stream. An expired row means nothing (readers compare `untilMs`
 * with the clock); `deleteExpired` clears such rows when convenient.
 */
export interface ChatMuteRepository {
  /** Stores the stream's mute, replacing the one it had. */
  put(record: ChatMuteRecord): void;
  /** Removes the stream's mute; false when it had none. */
  delete(streamId: string): boolean;
  /** The stream's row, expired or not; undefined: none. */
  get(streamId: string): ChatMuteRecord | undefined;
  /** Every row whose mute ends after `nowMs`. */
  listActive(nowMs: number): ChatMuteRecord[];
  /** Deletes the rows whose mute ended at or before `nowMs`; returns how many. */
  deleteExpired(nowMs: number): number;
}

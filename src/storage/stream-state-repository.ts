/**
 * Where a stream's loop stands, so that a restart resumes waits and cooldowns instead of
 * forgetting them.
 */
export interface StreamStateRecord {
  streamId: string;
  /** `idle`: no pending result; `wait`: after `Wait(t)`; `stop`: after `Stop(t)`. */
  kind: 'idle' | 'wait' | 'stop';
  /** When a `Wait(t)` times out, epoch milliseconds; null for `Wait(None)` or no wait. */
  waitUntil: number | null;
  /** When a `Stop(t)` cooldown ends, epoch milliseconds; null when not stopped. */
  stopUntil: number | null;
  /** Chance (0 to 1) that a private message or an @bot wakes a stopped stream early. */
  wakeProbability: number;
  /** When this state was written, epoch milliseconds. */
  updatedAt: number;
}

/** Stored stream-loop states. The SQLite implementation is `SqliteStreamStateRepository`. */
export interface StreamStateRepository {
  get(streamId: string): StreamStateRecord | undefined;
  /** Replaces the stream's state. The stream must be stored. */
  set(record: StreamStateRecord): void;
  /** Every stored state, ordered by stream id. */
  all(): StreamStateRecord[];
}

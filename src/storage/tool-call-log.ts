/** One finished tool call, for the prompt's tool history and for the admin console. */
export interface ToolCallRecord {
  streamId: string;
  /** The model's id for the call. */
  callId: string;
  toolName: string;
  /** Arguments as the model sent them. Stored as JSON; read back as `{}` if they could not be stored. */
  arguments: Record<string, unknown>;
  success: boolean;
  /** What went back to the model (already capped). */
  observation: string;
  /** Why the call failed; empty on success. */
  errorMessage: string;
  /** When the call started, epoch milliseconds. */
  startedAt: number;
  durationMs: number;
}

/** A log of tool calls. The SQLite implementation is `SqliteToolCallLog`. */
export interface ToolCallLog {
  /** Appends one finished call (its arguments, outcome and duration) to the stream's log. */
  record(entry: ToolCallRecord): void;
  /** The stream's newest `limit` calls, oldest first. */
  recent(streamId: string, limit: number): ToolCallRecord[];
  /** Deletes the calls that started before `epochMs`; returns how many. For retention. */
  deleteBefore(epochMs: number): number;
}

/**
 * `before_tool_call`: published before a tool or action runs (not for a name that matches
 * nothing). Set `skip` to refuse the call; only `args`, `skip` and `skip_reason` are read back.
 */
export interface BeforeToolCallPayload {
  /** `<plugin>:tool:<name>` or `<plugin>:action:<name>`. */
  signature: string;
  /** The stream the call was made in. Leave it unchanged. */
  stream_id: string;
  /** The model's id for this call, shared with `after_tool_call` and the tool result. */
  call_id: string;
  /** The name the model called (the tool's or action's name). Leave it unchanged. */
  tool_name: string;
  /** The arguments; a handler may change them (they are validated after). */
  args: Record<string, unknown>;
  /**
   * Defaults to false; true refuses the call: it does not run and the model reads a failure with
   * `skip_reason` (or 调用被拦截).
   */
  skip: boolean;
  /** Why it was skipped, shown to the model. */
  skip_reason: string;
}

/**
 * `after_tool_call`: published after a tool or action ran, or was refused by `before_tool_call`.
 * Observation only.
 */
export interface AfterToolCallPayload {
  /** `<plugin>:tool:<name>` or `<plugin>:action:<name>`. Observation only: changes to this payload are ignored. */
  signature: string;
  /** The stream the call was made in. */
  stream_id: string;
  /** The model's id for this call, as in `before_tool_call`. */
  call_id: string;
  /** The name the model called. */
  tool_name: string;
  /** The arguments the call ran with: what `before_tool_call` handlers left. */
  args: Record<string, unknown>;
  /** Whether the call succeeded; false also for a call a `before_tool_call` handler skipped. */
  success: boolean;
  /** What the model reads back on success (normally `''` on failure). */
  observation: string;
  /** Why the call failed (`''` on success). */
  error_message: string;
  /** Milliseconds the call took to run. */
  duration_ms: number;
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    /** Before a tool or action runs; a handler may change the arguments or refuse the call. */
    before_tool_call: BeforeToolCallPayload;
    /** After a tool or action ran (or was refused); for observers. */
    after_tool_call: AfterToolCallPayload;
  }
}

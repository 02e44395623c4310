/** `before_tool_call`: published before a tool or action runs. Set `skip` to refuse the call. */
export interface BeforeToolCallPayload {
  /** `<plugin>:tool:<name>` or `<plugin>:action:<name>`. */
  signature: string;
  stream_id: string;
  call_id: string;
  tool_name: string;
  /** The arguments; a handler may change them (they are validated after). */
  args: Record<string, unknown>;
  skip: boolean;
  /** Why it was skipped, shown to the model. */
  skip_reason: string;
}

/** `after_tool_call`: published after a tool or action ran. */
export interface AfterToolCallPayload {
  signature: string;
  stream_id: string;
  call_id: string;
  tool_name: string;
  args: Record<string, unknown>;
  success: boolean;
  observation: string;
  error_message: string;
  duration_ms: number;
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    before_tool_call: BeforeToolCallPayload;
    after_tool_call: AfterToolCallPayload;
  }
}

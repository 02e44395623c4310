/** What a tool call knows about where it runs. */
export interface ToolContext {
  /** The conversation stream the call belongs to. */
  streamId: string;
  /**
   * Aborts when the call times out or the turn is cancelled. A tool that waits on I/O
   * should pass it on (to `fetch`, `clock.sleep` ...) and stop when it fires; whatever it
   * returns afterwards is ignored.
   */
  signal: AbortSignal;
  /** The stream's capabilities; a tool is offered only when all of its own are in here. */
  capabilities: ReadonlySet<string>;
}

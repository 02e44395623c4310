/** A tool call the model asked for. */
export interface ToolCall {
  /** The provider's call id, or a synthesized stable one (`call_<index>_<name>`) when it sent none. */
  id: string;
  /** The tool's name as declared. */
  name: string;
  /**
   * The parsed arguments. Arguments that were not a JSON object arrive as `{ _raw: '<text>' }`,
   * so the tool layer can report the bad input to the model instead of guessing.
   */
  args: Record<string, unknown>;
}

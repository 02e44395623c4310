/** One call the model asked for: which tool, the provider's call id, and the arguments it wrote. */
export interface ToolInvocation {
  /** The name the model called; matched against the registry. */
  toolName: string;
  /** The provider's id for this call, echoed back with the result; may be empty. */
  callId: string;
  /**
   * The arguments. The registry hands the tool the validated copy: parsed by the tool's
   * schema, defaults applied.
   */
  arguments: Record<string, unknown>;
}

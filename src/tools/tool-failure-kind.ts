/**
 * Why a tool call failed, as the registry records it in a failure's `metadata.failureKind`
 * (which the model never sees) and in its warning log. The first three mean the call was
 * rejected before the tool ran, which a chat loop may answer with a repair round.
 */
export const ToolFailureKind = {
  /** No tool of that name is registered. */
  UNKNOWN_TOOL: 'unknown_tool',
  /** The tool exists but is not offered in this stream (side effect or capabilities). */
  NOT_OFFERED: 'not_offered',
  /** The arguments failed the tool's schema; the tool did not run. */
  INVALID_ARGUMENTS: 'invalid_arguments',
  /** The tool threw or rejected. */
  THREW: 'threw',
  /** The tool returned something that is not a `ToolExecutionResult`. */
  INVALID_RESULT: 'invalid_result',
  /** The tool returned a result carrying another tool's name. */
  NAME_MISMATCH: 'name_mismatch',
  /** The call ran past the tool's `timeoutMs`. */
  TIMED_OUT: 'timed_out',
  /** The caller's signal aborted (the turn was cancelled). */
  CANCELLED: 'cancelled',
  /** The tool itself returned a failure; only in logs, its metadata is left as it made it. */
  REPORTED: 'reported',
} as const;

export type ToolFailureKind = (typeof ToolFailureKind)[keyof typeof ToolFailureKind];

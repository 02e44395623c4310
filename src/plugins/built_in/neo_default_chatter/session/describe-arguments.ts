/** Longest form of a call's arguments in a log line, in characters. */
export const DESCRIBED_ARGUMENTS_MAX_CHARS = 80;

/**
 * A short, one-line form of a tool call's arguments for logs (`{"content":"好的"}`): JSON,
 * cut at `maxChars` with an ellipsis, so a long message does not flood the log.
 */
export function describeArguments(args: Readonly<Record<string, unknown>>, maxChars = DESCRIBED_ARGUMENTS_MAX_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(args) ?? '{}';
  } catch {
    text = '{…}'; // a cycle or a BigInt: the arguments cannot be shown, the call still can
  }
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}

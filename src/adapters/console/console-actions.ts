/** The platform name of console messages (their streams are private chats on it). */
export const CONSOLE_PLATFORM = 'console';

/**
 * The console adapter's platform actions: how the host, which runs the chat in another
 * process, tells the terminal what a person chatting there should see besides the replies.
 */
export const ConsoleAction = {
  /** The start-up report is out: show the greeting and the `你>` prompt (again after a restart). */
  START_CHAT: 'console_start_chat',
  /** One tool call of the model and its result, shown as a short line (`ToolCallNotice`). */
  SHOW_TOOL_CALL: 'console_show_tool_call',
} as const;

export type ConsoleAction = (typeof ConsoleAction)[keyof typeof ConsoleAction];

/** The params of `console_show_tool_call`. */
export interface ToolCallNotice {
  name: string;
  args: Readonly<Record<string, unknown>>;
  success: boolean;
  /** What the model reads back when the call succeeded. */
  observation: string;
  /** Why it failed, when it did. */
  errorMessage: string | null;
}

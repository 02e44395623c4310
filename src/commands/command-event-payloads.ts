import type { Message } from '../chat/message.js';
import type { PermissionLevel } from './permission-level.js';

/** `before_command`: a command is about to run; a handler's STOP vetoes it (it does not run; logged). */
export interface BeforeCommandPayload {
  stream_id: string;
  /** `<plugin>:command:<name>`, or `builtin:command:help` for the built-in /help. */
  signature: string;
  /** The command's name (not the alias typed). */
  name: string;
  args: Record<string, unknown>;
  options: Record<string, unknown>;
  level: PermissionLevel;
  message: Message;
}

/** `after_command`: a command ran (or threw); `before_command`'s fields and how it ended. */
export interface AfterCommandPayload extends BeforeCommandPayload {
  /** `ok` with the text it returned (if any), or `failed` with the error's message. */
  result: { status: 'ok'; reply: string | null } | { status: 'failed'; error: string };
  duration_ms: number;
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    before_command: BeforeCommandPayload;
    after_command: AfterCommandPayload;
  }
}

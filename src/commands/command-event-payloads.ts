import type { Message } from '../chat/message.js';
import type { PermissionLevel } from './permission-level.js';

/** `before_command`: a command is about to run; a handler's STOP vetoes it (it does not run; logged). */
export interface BeforeCommandPayload {
  /** The conversation the command was sent in. */
  stream_id: string;
  /** `<plugin>:command:<name>`, or `builtin:command:help` for the built-in /help. */
  signature: string;
  /** The command's name (not the alias typed). */
  name: string;
  /**
   * The positional arguments by declared name, already through their schemas (empty for
   * /help). A `before_command` handler may replace this: the command runs with what it leaves.
   */
  args: Record<string, unknown>;
  /** The `--options` given, by declared name, through their schemas; replaceable like `args`. */
  options: Record<string, unknown>;
  /** The sender's level (see `levelOf`), which already allowed the command. */
  level: PermissionLevel;
  /** The inbound message that carried the command. */
  message: Message;
}

/** `after_command`: a command ran (or threw); `before_command`'s fields and how it ended. */
export interface AfterCommandPayload extends BeforeCommandPayload {
  /** `ok` with the text it returned (if any), or `failed` with the error's message. */
  result:
    | {
        /** `execute` returned (or resolved). */
        status: 'ok';
        /** The text it returned, sent as the reply; null when it returned nothing or only whitespace. */
        reply: string | null;
      }
    | {
        /** `execute` threw (or rejected); the sender was told it failed. */
        status: 'failed';
        /** The error's message. */
        error: string;
      };
  /** Milliseconds from calling `execute` until it ended and its reply (or the failure notice) went out: a slow platform adds to it. */
  duration_ms: number;
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    /** A command is about to run; see {@link BeforeCommandPayload}. */
    before_command: BeforeCommandPayload;
    /** A command has run (not published for the built-in /help); see {@link AfterCommandPayload}. */
    after_command: AfterCommandPayload;
  }
}

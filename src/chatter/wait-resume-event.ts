/** Where a resume came from; any other string is allowed for plugin-defined sources. */
export type ResumeSource = 'message' | 'timer' | 'sub_agent' | 'internal_context' | (string & {});

/** What a waiting chatter is resumed with. The chatter does not care which subsystem sent it. */
export class WaitResumeEvent {
  /** Where the resume came from: `message`, `timer`, `sub_agent`, `internal_context`, or a plugin's own source. */
  readonly source: ResumeSource;
  /** The seconds the chatter asked to wait (for a `timer` resume), else 0. */
  readonly waitTime: number;
  /** Unread messages in the stream when it resumed. */
  readonly unreadCount: number;
  /** Anything the source wants to pass (a sub-agent's result, a context key ...). */
  readonly extra: Record<string, unknown>;

  constructor(source: ResumeSource, options: { waitTime?: number; unreadCount?: number; extra?: Record<string, unknown> } = {}) {
    this.source = source;
    this.waitTime = options.waitTime ?? 0;
    this.unreadCount = options.unreadCount ?? 0;
    this.extra = options.extra ?? {};
  }
}

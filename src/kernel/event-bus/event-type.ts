/**
 * The system events the host publishes. Values are the event names; a member and its
 * string value are the same event (`EventType.ON_START === 'on_start'`).
 */
export const EventType = {
  ON_START: 'on_start',
  ON_STOP: 'on_stop',
  ON_ALL_PLUGIN_LOADED: 'on_all_plugin_loaded',
  ON_PLUGIN_UNLOADED: 'on_plugin_unloaded',
  ON_COMPONENT_LOADED: 'on_component_loaded',
  ON_COMPONENT_UNLOADED: 'on_component_unloaded',
  ON_MESSAGE_RECEIVED: 'on_message_received',
  ON_MESSAGE_SENT: 'on_message_sent',
  /** A platform notice: members joining or leaving, a recall, a ban, a poke … (`OnNoticePayload`). */
  ON_NOTICE: 'on_notice',
  /** A friend request or a group join request / invitation (`OnRequestPayload`). */
  ON_REQUEST: 'on_request',
  ON_PROMPT_BUILD: 'on_prompt_build',
  BEFORE_LLM_REQUEST: 'before_llm_request',
  AFTER_LLM_REQUEST: 'after_llm_request',
  ON_LLM_REQUEST_FAILED: 'on_llm_request_failed',
  BEFORE_TOOL_CALL: 'before_tool_call',
  AFTER_TOOL_CALL: 'after_tool_call',
  ON_CHATTER_STEP: 'on_chatter_step',
  AFTER_CHATTER_STEP: 'after_chatter_step',
  /** A command is about to run; STOP vetoes it (`BeforeCommandPayload`). */
  BEFORE_COMMAND: 'before_command',
  /** A command ran, with its result (`AfterCommandPayload`). */
  AFTER_COMMAND: 'after_command',
} as const;

export type EventType = (typeof EventType)[keyof typeof EventType];

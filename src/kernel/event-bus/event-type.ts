/**
 * The system events the host publishes. Values are the event names; a member and its
 * string value are the same event (`EventType.ON_START === 'on_start'`).
 */
export const EventType = {
  /** The host finished starting (`OnStartPayload`). */
  ON_START: 'on_start',
  /** The host is about to stop (`OnStopPayload`). */
  ON_STOP: 'on_stop',
  /** Every plugin of this start has loaded (`OnAllPluginLoadedPayload`). */
  ON_ALL_PLUGIN_LOADED: 'on_all_plugin_loaded',
  /** A plugin was unloaded (`OnPluginUnloadedPayload`). */
  ON_PLUGIN_UNLOADED: 'on_plugin_unloaded',
  /** A plugin's component was registered (`ComponentLifecyclePayload`). */
  ON_COMPONENT_LOADED: 'on_component_loaded',
  /** A plugin's component was removed (`ComponentLifecyclePayload`). */
  ON_COMPONENT_UNLOADED: 'on_component_unloaded',
  /**
   * A message arrived from an adapter; a STOP above weight 0 stores it without delivering it
   * (`OnMessageReceivedPayload`).
   */
  ON_MESSAGE_RECEIVED: 'on_message_received',
  /** The bot is about to send a message; handlers may change or cancel it (`OnMessageSentPayload`). */
  ON_MESSAGE_SENT: 'on_message_sent',
  /** A platform notice: members joining or leaving, a recall, a ban, a poke … (`OnNoticePayload`). */
  ON_NOTICE: 'on_notice',
  /** A friend request or a group join request / invitation (`OnRequestPayload`). */
  ON_REQUEST: 'on_request',
  /** A prompt template is about to render; handlers change its values (`OnPromptBuildPayload`). */
  ON_PROMPT_BUILD: 'on_prompt_build',
  /** A model request is about to be sent; handlers may edit it (`BeforeLlmRequestPayload`). */
  BEFORE_LLM_REQUEST: 'before_llm_request',
  /** A model answered; handlers may change the answer (`AfterLlmRequestPayload`). */
  AFTER_LLM_REQUEST: 'after_llm_request',
  /** Every model of a task failed (`LlmRequestFailedPayload`). */
  ON_LLM_REQUEST_FAILED: 'on_llm_request_failed',
  /** A tool or action is about to run; handlers may change its arguments or refuse it (`BeforeToolCallPayload`). */
  BEFORE_TOOL_CALL: 'before_tool_call',
  /** A tool or action ran (`AfterToolCallPayload`). */
  AFTER_TOOL_CALL: 'after_tool_call',
  /** A stream's chatter is about to step; handlers may skip the step (`OnChatterStepPayload`). */
  ON_CHATTER_STEP: 'on_chatter_step',
  /** A chatter step finished (`AfterChatterStepPayload`). */
  AFTER_CHATTER_STEP: 'after_chatter_step',
  /** A command is about to run; STOP vetoes it (`BeforeCommandPayload`). */
  BEFORE_COMMAND: 'before_command',
  /** A command ran, with its result (`AfterCommandPayload`). */
  AFTER_COMMAND: 'after_command',
} as const;

export type EventType = (typeof EventType)[keyof typeof EventType];

/**
 * The 17 events NDFC publishes, each value the full event name. A member and its string are
 * the same event: `subscribe: [NdfcEvent.FETCH_UNREADS]` equals
 * `subscribe: ['neo_default_chatter:fetch_unreads']`.
 *
 * Tier III is `PREPROCESS`; the other 16 are NDFC's own seams (the seed counts 15 Tier II
 * events plus the `SESSION_TRANSITION` observation event).
 */
export const NdfcEvent = {
  /** Tier III: may this batch of unread messages be answered? See `PreprocessDecision`. */
  PREPROCESS: 'neo_default_chatter:preprocess',
  /** Tier II: the stream's unread messages, at the start of a turn (`FetchUnreadsPayload`). */
  FETCH_UNREADS: 'neo_default_chatter:fetch_unreads',
  /** Tier II: one unread message as a line of the user prompt (`FormatUnreadLinePayload`). */
  FORMAT_UNREAD_LINE: 'neo_default_chatter:format_unread_line',
  /** Tier II: mark messages read, moving them into the history (`FlushUnreadsPayload`). */
  FLUSH_UNREADS: 'neo_default_chatter:flush_unreads',
  /** Tier II: the conversation's model request, once per run (`CreateRequestPayload`). */
  CREATE_REQUEST: 'neo_default_chatter:create_request',
  /** Tier II: the actions and tools offered to the model, before each request (`InjectUsablesPayload`). */
  INJECT_USABLES: 'neo_default_chatter:inject_usables',
  /** Tier II: run the model's tool and action calls (`RunToolCallPayload`). */
  RUN_TOOL_CALL: 'neo_default_chatter:run_tool_call',
  /** Tier II: add the turn's user prompt to the conversation's request (`InjectUnreadPayloadPayload`). */
  INJECT_UNREAD_PAYLOAD: 'neo_default_chatter:inject_unread_payload',
  /** Tier II: the stream's history as prompt lines, for a conversation's first turn (`BuildHistoryTextPayload`). */
  BUILD_HISTORY_TEXT: 'neo_default_chatter:build_history_text',
  /** Tier II: the 'do not' fragments of the system prompt (`BuildNegativeExtraPayload`). */
  BUILD_NEGATIVE_EXTRA: 'neo_default_chatter:build_negative_extra',
  /** Tier II: the message the turn's tool calls answer (`PickTriggerMessagePayload`). */
  PICK_TRIGGER_MESSAGE: 'neo_default_chatter:pick_trigger_message',
  /** Tier II: the prompt telling the model why a waiting session woke (`BuildResumePromptPayload`). */
  BUILD_RESUME_PROMPT: 'neo_default_chatter:build_resume_prompt',
  /** Tier II: is this call a repeat within the turn? (`DedupeToolCallPayload`). */
  DEDUPE_TOOL_CALL: 'neo_default_chatter:dedupe_tool_call',
  /** Tier II: the result text of a control call, a duplicate, or a normal call (`FormatToolResultPayload`). */
  FORMAT_TOOL_RESULT: 'neo_default_chatter:format_tool_result',
  /** Tier II: the chance a private message wakes a stopped conversation early (`ComputeStopWakePayload`). */
  COMPUTE_STOP_WAKE: 'neo_default_chatter:compute_stop_wake',
  /** Tier II: the cooldown, in seconds, after the model stops the conversation (`ComputeCooldownPayload`). */
  COMPUTE_COOLDOWN: 'neo_default_chatter:compute_cooldown',
  /** Observation only: the session moved from one phase to another. */
  SESSION_TRANSITION: 'neo_default_chatter:session_transition',
} as const;

export type NdfcEvent = (typeof NdfcEvent)[keyof typeof NdfcEvent];

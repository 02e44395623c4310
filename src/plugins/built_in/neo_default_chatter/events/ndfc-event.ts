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
  FETCH_UNREADS: 'neo_default_chatter:fetch_unreads',
  FORMAT_UNREAD_LINE: 'neo_default_chatter:format_unread_line',
  FLUSH_UNREADS: 'neo_default_chatter:flush_unreads',
  CREATE_REQUEST: 'neo_default_chatter:create_request',
  INJECT_USABLES: 'neo_default_chatter:inject_usables',
  RUN_TOOL_CALL: 'neo_default_chatter:run_tool_call',
  INJECT_UNREAD_PAYLOAD: 'neo_default_chatter:inject_unread_payload',
  BUILD_HISTORY_TEXT: 'neo_default_chatter:build_history_text',
  BUILD_NEGATIVE_EXTRA: 'neo_default_chatter:build_negative_extra',
  PICK_TRIGGER_MESSAGE: 'neo_default_chatter:pick_trigger_message',
  BUILD_RESUME_PROMPT: 'neo_default_chatter:build_resume_prompt',
  DEDUPE_TOOL_CALL: 'neo_default_chatter:dedupe_tool_call',
  FORMAT_TOOL_RESULT: 'neo_default_chatter:format_tool_result',
  COMPUTE_STOP_WAKE: 'neo_default_chatter:compute_stop_wake',
  COMPUTE_COOLDOWN: 'neo_default_chatter:compute_cooldown',
  /** Observation only: the session moved from one phase to another. */
  SESSION_TRANSITION: 'neo_default_chatter:session_transition',
} as const;

export type NdfcEvent = (typeof NdfcEvent)[keyof typeof NdfcEvent];

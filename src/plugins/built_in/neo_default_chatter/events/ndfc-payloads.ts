import type {
  ChatKind,
  ChatStream,
  ChatterResult,
  LLMRequest,
  LLMResponse,
  Message,
  ToolCall,
  Usable,
  UsableSet,
  WaitResumeEvent,
} from 'moonglass';
import type { NeoChatterConfig } from '../session/session-config.js';

// One interface per NDFC event, keys spelled exactly as the seed spells them. NdfcPublisher
// pre-fills every key before publishing; handlers change values, never keys (a handler that
// adds or removes a key has its effect dropped). "Result" fields are the ones the default
// handler fills and the session reads back.

/** The four phases of a session, as `session_transition` reports them. */
export type NdfcSessionPhase = 'WAIT_USER' | 'MODEL_TURN' | 'TOOL_EXEC' | 'FOLLOW_UP';

/** Which text `format_tool_result` produces. */
export type ToolResultKind = 'pass' | 'stop' | 'duplicate' | 'normal';

/** One tool-call batch result: `[success, needsFollowUp]` (a tool result needs a model turn; an action does not). */
export type ToolCallResult = [success: boolean, needsFollowUp: boolean];

/** `neo_default_chatter:preprocess` (Tier III): handlers may change only proceed, reason, mutations, force_stop_minutes. */
export interface PreprocessPayload {
  stream_id: string;
  chat_type: ChatKind;
  /** The live stream. */
  chat_stream: ChatStream;
  /** A copy of the unread messages of this round. */
  unreads: Message[];
  history_text: string;
  config: NeoChatterConfig;
  /** Answer these messages now? Default false. */
  proceed: boolean;
  /** Why not (for logs). Default `''`. */
  reason: string;
  /** Text, or `key: value` pairs, appended to the user prompt's extra info when proceeding. Default `''`. */
  mutations: string | Record<string, unknown>;
  /** With `proceed` false: end the conversation with this cooldown (minutes) instead of waiting. Default null. */
  force_stop_minutes: number | null;
}

/** `neo_default_chatter:create_request`. Result: `request`. */
export interface CreateRequestPayload {
  stream_id: string;
  /** The model task; the session passes `actor_task_name` (usually `actor`). */
  task_name: string;
  /** Default `''`: the default handler then names the request after the task. */
  request_name: string;
  /** Default `'actor'`. */
  with_reminder: string | null;
  /** Default null; the default handler fills it. */
  request: LLMRequest | null;
}

/** `neo_default_chatter:inject_usables`. Result: `tool_registry`; `extra_tools` is append-only. */
export interface InjectUsablesPayload {
  stream_id: string;
  request: LLMRequest;
  /** Default null; the default handler fills it with everything offered in the stream. */
  tool_registry: UsableSet | null;
  /** Default `[]`: third parties append; the session registers each entry too. */
  extra_tools: Usable[];
}

/** `neo_default_chatter:fetch_unreads`. Result: `messages`. */
export interface FetchUnreadsPayload {
  stream_id: string;
  /** Default `[]`. */
  messages: Message[];
}

/** `neo_default_chatter:format_unread_line`. Result: `formatted_line`. */
export interface FormatUnreadLinePayload {
  stream_id: string;
  message: Message;
  /** strftime-style; default `'%H:%M'`. */
  time_format: string;
  /** Default `''`. */
  formatted_line: string;
}

/** `neo_default_chatter:flush_unreads`. Result: `flushed_count`. */
export interface FlushUnreadsPayload {
  stream_id: string;
  messages: Message[];
  /** Default 0. */
  flushed_count: number;
}

/** `neo_default_chatter:inject_unread_payload`. The default mutates `response` unless `skip`. */
export interface InjectUnreadPayloadPayload {
  stream_id: string;
  /**
   * The conversation's request (the seed's LLMConversationState), shared and mutable: the
   * default appends the user payload to it, and changes take effect whatever the decision.
   */
  response: LLMRequest;
  formatted_text: string;
  unread_msgs: Message[] | null;
  /** Default: the config's `native_multimodal`. */
  native_multimodal: boolean;
  /** Default false; true leaves `response` alone. */
  skip: boolean;
}

/** `neo_default_chatter:build_history_text`. Result: `lines`. */
export interface BuildHistoryTextPayload {
  stream_id: string;
  chat_stream: ChatStream;
  /** Default `[]`. */
  lines: string[];
}

/** `neo_default_chatter:build_negative_extra`. Result: `fragments` (append-only). */
export interface BuildNegativeExtraPayload {
  stream_id: string;
  config: NeoChatterConfig | null;
  /** Default `[]`: third parties append and return SUCCESS; the default appends NDFC's own. */
  fragments: string[];
}

/** `neo_default_chatter:pick_trigger_message`. Result: `trigger`. */
export interface PickTriggerMessagePayload {
  stream_id: string;
  chat_stream: ChatStream;
  unreads: Message[];
  current_message: Message | null;
  history: Message[];
  /** Default null. */
  trigger: Message | null;
}

/** `neo_default_chatter:build_resume_prompt`. Result: `prompt`. */
export interface BuildResumePromptPayload {
  stream_id: string;
  resume_event: WaitResumeEvent;
  /** Default `resume_event.source`: `timer`, `message`, `sub_agent`, `internal_context` or another. */
  source: string;
  /** Default `''`. */
  prompt: string;
}

/** `neo_default_chatter:run_tool_call`. Result: `results`, one per call in call order. */
export interface RunToolCallPayload {
  stream_id: string;
  calls: ToolCall[];
  /** Shared and mutable: the default adds each call's result to it. */
  response: LLMResponse;
  usable_map: UsableSet;
  trigger_msg: Message | null;
  /** Default `[]`. */
  results: ToolCallResult[];
}

/** `neo_default_chatter:dedupe_tool_call`. Result: `is_duplicate`. */
export interface DedupeToolCallPayload {
  stream_id: string;
  call: ToolCall;
  /** Shared and mutable: one set per user turn (a model round and its follow-ups), emptied when the next turn starts. */
  seen_signatures: Set<string>;
  /** Default false. */
  is_duplicate: boolean;
}

/** `neo_default_chatter:format_tool_result`. Result: `result_text`. */
export interface FormatToolResultPayload {
  stream_id: string;
  call_name: string;
  kind: ToolResultKind;
  args: Record<string, unknown>;
  /** Default `''`. */
  result_text: string;
}

/** `neo_default_chatter:compute_stop_wake`. Result: `probability`. */
export interface ComputeStopWakePayload {
  stream_id: string;
  config: NeoChatterConfig;
  chat_type: ChatKind;
  /** Default 0.0. */
  probability: number;
}

/** `neo_default_chatter:compute_cooldown`. Result: `cooldown_seconds`. */
export interface ComputeCooldownPayload {
  stream_id: string;
  /** From `stop_conversation`. */
  minutes: number;
  config: NeoChatterConfig;
  /** Default 0. */
  cooldown_seconds: number;
}

/** `neo_default_chatter:session_transition`: observation only (return PASS). */
export interface SessionTransitionPayload {
  stream_id: string;
  from_phase: NdfcSessionPhase;
  to_phase: NdfcSessionPhase;
  turn_result: ChatterResult | null;
}

/** Every NDFC event with its payload. */
export interface NdfcEventPayloads {
  'neo_default_chatter:preprocess': PreprocessPayload;
  'neo_default_chatter:fetch_unreads': FetchUnreadsPayload;
  'neo_default_chatter:format_unread_line': FormatUnreadLinePayload;
  'neo_default_chatter:flush_unreads': FlushUnreadsPayload;
  'neo_default_chatter:create_request': CreateRequestPayload;
  'neo_default_chatter:inject_usables': InjectUsablesPayload;
  'neo_default_chatter:run_tool_call': RunToolCallPayload;
  'neo_default_chatter:inject_unread_payload': InjectUnreadPayloadPayload;
  'neo_default_chatter:build_history_text': BuildHistoryTextPayload;
  'neo_default_chatter:build_negative_extra': BuildNegativeExtraPayload;
  'neo_default_chatter:pick_trigger_message': PickTriggerMessagePayload;
  'neo_default_chatter:build_resume_prompt': BuildResumePromptPayload;
  'neo_default_chatter:dedupe_tool_call': DedupeToolCallPayload;
  'neo_default_chatter:format_tool_result': FormatToolResultPayload;
  'neo_default_chatter:compute_stop_wake': ComputeStopWakePayload;
  'neo_default_chatter:compute_cooldown': ComputeCooldownPayload;
  'neo_default_chatter:session_transition': SessionTransitionPayload;
}

// Typed `publishEvent` and handlers for every NDFC event, through the public entry point.
declare module 'moonglass' {
  interface EventPayloads extends NdfcEventPayloads {}
}

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
  /** The stream whose unread messages this round is about. Set by the session; leave it unchanged. */
  stream_id: string;
  /** `'private'` or `'group'`, the stream's chat type. Set by the session; leave it unchanged. */
  chat_type: ChatKind;
  /** The live stream. */
  chat_stream: ChatStream;
  /** A copy of the unread messages of this round. */
  unreads: Message[];
  /**
   * The stream's history as prompt lines joined by newlines (`''` once the conversation's prompt
   * already holds the history). Set by the session; leave it unchanged.
   */
  history_text: string;
  /**
   * The NDFC config the session runs with ({@link NeoChatterConfig}): the session's own object, so
   * do not change it.
   */
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
  /** The stream the conversation runs in. Set by the session; leave it unchanged. */
  stream_id: string;
  /** The model task; the session passes `actor_task_name` (usually `actor`). */
  task_name: string;
  /** Default `''`: the default handler then names the request after the task. */
  request_name: string;
  /**
   * The seed's reminder name; default `'actor'`. The default handler does not read it (moonglass
   * requests carry no reminder).
   */
  with_reminder: string | null;
  /**
   * The model request the conversation will use; default null, the default handler fills it. A
   * replacement sets its own; still null afterwards, the run fails (`no model request could be created`).
   */
  request: LLMRequest | null;
}

/** `neo_default_chatter:inject_usables`. Result: `tool_registry`; `extra_tools` is append-only. */
export interface InjectUsablesPayload {
  /** The stream the conversation runs in. Set by the session; leave it unchanged. */
  stream_id: string;
  /**
   * The conversation's model request; the default sets its `tools` to the declarations of
   * everything in `tool_registry` plus `extra_tools`. Shared and mutable.
   */
  request: LLMRequest;
  /** Default null; the default handler fills it with everything offered in the stream. */
  tool_registry: UsableSet | null;
  /** Default `[]`: third parties append; the session registers each entry too. */
  extra_tools: Usable[];
}

/** `neo_default_chatter:fetch_unreads`. Result: `messages`. */
export interface FetchUnreadsPayload {
  /** The stream whose unread messages are wanted. Set by the session; leave it unchanged. */
  stream_id: string;
  /**
   * The unread messages to answer, oldest first; default `[]`, the default handler fills it with the
   * stream's. A handler may filter or replace the list; empty, the session waits for more.
   */
  messages: Message[];
}

/** `neo_default_chatter:format_unread_line`. Result: `formatted_line`. */
export interface FormatUnreadLinePayload {
  /** The stream the message belongs to. Set by the session; leave it unchanged. */
  stream_id: string;
  /** The unread message to render as one prompt line. Set by the session; leave it unchanged. */
  message: Message;
  /** strftime-style; default `'%H:%M'`. */
  time_format: string;
  /** The message's line in the user prompt; default `''`, the default handler fills it. */
  formatted_line: string;
}

/** `neo_default_chatter:flush_unreads`. Result: `flushed_count`. */
export interface FlushUnreadsPayload {
  /** The stream whose unread messages are marked read. Set by the session; leave it unchanged. */
  stream_id: string;
  /**
   * The unread messages to move into the stream's history (those the model has just answered, or
   * all of them on a forced stop). A handler may narrow the list; the default flushes exactly
   * these.
   */
  messages: Message[];
  /** How many messages were marked read; default 0, the default handler fills it. The session does not act on it. */
  flushed_count: number;
}

/** `neo_default_chatter:inject_unread_payload`. The default mutates `response` unless `skip`. */
export interface InjectUnreadPayloadPayload {
  /** The stream the conversation runs in. Set by the session; leave it unchanged. */
  stream_id: string;
  /**
   * The conversation's request (the seed's LLMConversationState), shared and mutable: the
   * default appends the user payload to it, and changes take effect whatever the decision.
   */
  response: LLMRequest;
  /**
   * The whole rendered user prompt of this turn (history, unread lines, time, extra info); the
   * default appends it as one user payload. A handler may rewrite it; `''` adds nothing.
   */
  formatted_text: string;
  /**
   * The unread messages the prompt was rendered from (NDFC's session always passes an array; null
   * stands for none). Informational: the default does not read it.
   */
  unread_msgs: Message[] | null;
  /**
   * Default: the config's `native_multimodal`. The default handler adds text either way (media
   * arrive already described).
   */
  native_multimodal: boolean;
  /**
   * Default false; a handler that added the prompt itself sets it to true, and the default then
   * leaves `response` alone.
   */
  skip: boolean;
}

/** `neo_default_chatter:build_history_text`. Result: `lines`. */
export interface BuildHistoryTextPayload {
  /** The stream whose history is rendered. Set by the session; leave it unchanged. */
  stream_id: string;
  /** The live stream; the default renders one line per message of `chat_stream.history`. Do not change it. */
  chat_stream: ChatStream;
  /**
   * The history's prompt lines, oldest first; default `[]`, the default handler fills it. The
   * session joins them with newlines.
   */
  lines: string[];
}

/** `neo_default_chatter:build_negative_extra`. Result: `fragments` (append-only). */
export interface BuildNegativeExtraPayload {
  /** The stream whose system prompt is being built. Set by the session; leave it unchanged. */
  stream_id: string;
  /**
   * The session's NDFC config (its own object: do not change it), or null when none is known; the
   * default skips its fragments when `reinforce_negative_behaviors` is off.
   */
  config: NeoChatterConfig | null;
  /** Default `[]`: third parties append and return SUCCESS; the default appends NDFC's own. */
  fragments: string[];
}

/** `neo_default_chatter:pick_trigger_message`. Result: `trigger`. */
export interface PickTriggerMessagePayload {
  /** The stream the tool calls run in. Set by the session; leave it unchanged. */
  stream_id: string;
  /** The live stream. Do not change it. */
  chat_stream: ChatStream;
  /** The unread messages this turn's prompt held (already marked read by now); the default picks the last one. */
  unreads: Message[];
  /**
   * The newest message of the last turn that had unread messages, or null before the first; the
   * default's choice when `unreads` is empty.
   */
  current_message: Message | null;
  /** The stream's history, oldest first; the default's last resort. */
  history: Message[];
  /**
   * The message the calls answer; default null, the default handler fills it. Passed on as
   * `run_tool_call`'s `trigger_msg`.
   */
  trigger: Message | null;
}

/** `neo_default_chatter:build_resume_prompt`. Result: `prompt`. */
export interface BuildResumePromptPayload {
  /** The stream being resumed. Set by the session; leave it unchanged. */
  stream_id: string;
  /**
   * What woke the session ({@link WaitResumeEvent}): its `source`, `waitTime` and `extra`. Set by
   * the session; leave it unchanged.
   */
  resume_event: WaitResumeEvent;
  /** Default `resume_event.source`: `timer`, `message`, `sub_agent`, `internal_context` or another. */
  source: string;
  /**
   * The prompt telling the model why it woke; default `''`, the default handler fills it. For a
   * `message` resume a non-empty prompt joins the unread prompt's extra info; for other sources
   * it is sent as a user message, and an empty one makes the session read unread messages instead.
   */
  prompt: string;
}

/** `neo_default_chatter:run_tool_call`. Result: `results`, one per call in call order. */
export interface RunToolCallPayload {
  /** The stream the calls run in. Set by the session; leave it unchanged. */
  stream_id: string;
  /**
   * The model's calls to run, in the model's order, without duplicates and without
   * `pass_and_wait`/`stop_conversation` (the session answers those itself).
   */
  calls: ToolCall[];
  /** Shared and mutable: the default adds each call's result to it. */
  response: LLMResponse;
  /**
   * The actions and tools offered in this turn, by name (from `inject_usables`); a call whose name
   * is not in it fails.
   */
  usable_map: UsableSet;
  /**
   * The message the calls answer (from `pick_trigger_message`), or null. The default does not read
   * it; it is there for replacements.
   */
  trigger_msg: Message | null;
  /**
   * `[success, needsFollowUp]` per call, in call order; default `[]`, the default handler fills
   * it. Any `needsFollowUp` true asks the model again (unless it also waited or stopped).
   */
  results: ToolCallResult[];
}

/** `neo_default_chatter:dedupe_tool_call`. Result: `is_duplicate`. */
export interface DedupeToolCallPayload {
  /** The stream the call was made in. Set by the session; leave it unchanged. */
  stream_id: string;
  /** The model's call to check. Set by the session; leave it unchanged. */
  call: ToolCall;
  /** Shared and mutable: one set per user turn (a model round and its follow-ups), emptied when the next turn starts. */
  seen_signatures: Set<string>;
  /**
   * Whether the call repeats one of this turn's; default false, the default handler fills it. A
   * duplicate is not run: the model reads the `duplicate` text instead.
   */
  is_duplicate: boolean;
}

/** `neo_default_chatter:format_tool_result`. Result: `result_text`. */
export interface FormatToolResultPayload {
  /** The stream the call was made in. Set by the session; leave it unchanged. */
  stream_id: string;
  /** The name of the tool or action the text answers. */
  call_name: string;
  /**
   * Which text is wanted: `pass` (pass_and_wait), `stop` (stop_conversation), `duplicate` (a
   * repeated call skipped), or `normal` (a call that ran; a non-empty text is added after its real
   * result).
   */
  kind: ToolResultKind;
  /** The call's arguments as the model gave them; the default reads `seconds` for `pass` and `minutes` for `stop`. */
  args: Record<string, unknown>;
  /**
   * The text the model reads as the call's result (after the real result, for `normal`); default
   * `''`, the default handler fills it.
   */
  result_text: string;
}

/** `neo_default_chatter:compute_stop_wake`. Result: `probability`. */
export interface ComputeStopWakePayload {
  /** The stream whose conversation stops. Set by the session; leave it unchanged. */
  stream_id: string;
  /**
   * The session's NDFC config (its own object: do not change it); the default reads
   * `enable_stop_direct_message_wake` and `stop_direct_message_wake_probability`.
   */
  config: NeoChatterConfig;
  /** `'private'` or `'group'`; the default gives 0 in a group. Set by the session; leave it unchanged. */
  chat_type: ChatKind;
  /**
   * The chance, 0..1, that a private message wakes the stopped conversation early; default 0.0,
   * the default handler fills it. Read back clamped to 0..1; 0 turns the wake off.
   */
  probability: number;
}

/** `neo_default_chatter:compute_cooldown`. Result: `cooldown_seconds`. */
export interface ComputeCooldownPayload {
  /** The stream whose conversation stops. Set by the session; leave it unchanged. */
  stream_id: string;
  /**
   * The cooldown the model asked for, in minutes: `stop_conversation`'s `minutes` (else
   * `default_stop_minutes`), or a preprocess `force_stop_minutes`.
   */
  minutes: number;
  /** The session's NDFC config (its own object: do not change it); the default reads `enable_cooldown`. */
  config: NeoChatterConfig;
  /**
   * The cooldown in seconds before a new conversation; default 0, the default handler fills it.
   * Read back as 0 when negative.
   */
  cooldown_seconds: number;
}

/** `neo_default_chatter:session_transition`: observation only (return PASS). */
export interface SessionTransitionPayload {
  /** The stream whose session changed phase. */
  stream_id: string;
  /** The phase the session left. */
  from_phase: NdfcSessionPhase;
  /** The phase the session entered. */
  to_phase: NdfcSessionPhase;
  /**
   * The result the session yields with this transition (a Wait or a Stop in NDFC's session), or
   * null when it yields none.
   */
  turn_result: ChatterResult | null;
}

/** Every NDFC event with its payload. */
export interface NdfcEventPayloads {
  /** Tier III, before the model is asked: may this batch of unread messages be answered? */
  'neo_default_chatter:preprocess': PreprocessPayload;
  /** The stream's unread messages, at the start of a turn. */
  'neo_default_chatter:fetch_unreads': FetchUnreadsPayload;
  /** One unread message as a line of the user prompt. */
  'neo_default_chatter:format_unread_line': FormatUnreadLinePayload;
  /** Mark messages read (move them into the history). */
  'neo_default_chatter:flush_unreads': FlushUnreadsPayload;
  /** The conversation's model request, once per session run. */
  'neo_default_chatter:create_request': CreateRequestPayload;
  /** The actions and tools offered to the model, before each request. */
  'neo_default_chatter:inject_usables': InjectUsablesPayload;
  /** Run the model's tool and action calls. */
  'neo_default_chatter:run_tool_call': RunToolCallPayload;
  /** Add the turn's user prompt to the conversation's request. */
  'neo_default_chatter:inject_unread_payload': InjectUnreadPayloadPayload;
  /** The stream's history as prompt lines, for the first turn of a conversation. */
  'neo_default_chatter:build_history_text': BuildHistoryTextPayload;
  /** The 'do not' fragments of the system prompt. */
  'neo_default_chatter:build_negative_extra': BuildNegativeExtraPayload;
  /** The message the turn's tool calls answer. */
  'neo_default_chatter:pick_trigger_message': PickTriggerMessagePayload;
  /** The prompt that tells the model why a waiting session woke up. */
  'neo_default_chatter:build_resume_prompt': BuildResumePromptPayload;
  /** Is this call a repeat within the turn? */
  'neo_default_chatter:dedupe_tool_call': DedupeToolCallPayload;
  /** The tool-result text for a control call, a duplicate, or after a normal call. */
  'neo_default_chatter:format_tool_result': FormatToolResultPayload;
  /** The probability that a private message wakes a stopped conversation early. */
  'neo_default_chatter:compute_stop_wake': ComputeStopWakePayload;
  /** The cooldown, in seconds, after the model stops the conversation. */
  'neo_default_chatter:compute_cooldown': ComputeCooldownPayload;
  /** Observation only: the session moved to another phase. */
  'neo_default_chatter:session_transition': SessionTransitionPayload;
}

// Typed `publishEvent` and handlers for every NDFC event, through the public entry point.
declare module 'moonglass' {
  interface EventPayloads extends NdfcEventPayloads {}
}

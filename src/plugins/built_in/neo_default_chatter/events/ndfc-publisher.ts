import {
  EventDecision,
  publishEvent,
  type ChatKind,
  type ChatStream,
  type ChatterResult,
  type EventBus,
  type EventParams,
  type LLMRequest,
  type LLMResponse,
  type Logger,
  type Message,
  type PublishResult,
  type ToolCall,
  type UsableSet,
  type WaitResumeEvent,
} from 'moonglass';
import type { NeoChatterConfigValues } from '../config.js';
import { withPluginSection } from '../session/session-config.js';
import { NdfcEvent } from './ndfc-event.js';
import type {
  NdfcEventPayloads,
  NdfcSessionPhase,
  PreprocessPayload,
  ToolCallResult,
  ToolResultKind,
} from './ndfc-payloads.js';
import { PreprocessDecision } from './preprocess-decision.js';

/** The part of an `EventBus` the publisher uses when given one. */
export type NdfcBus = Pick<EventBus, 'publish' | 'subscribers'>;

/** How to publish; every field optional. */
export interface NdfcPublishOptions {
  /**
   * Publish on this bus (say `runtime.bus`) instead of the running host's through
   * `publishEvent`. Needed in a process with several running hosts; lets `preprocess` see
   * exactly whether anyone subscribes.
   */
  bus?: NdfcBus;
  /** Where `preprocess` reports a publish that failed. */
  logger?: Logger;
}

/** What `preprocess` is given; `stream_id` and `chat_type` default to the stream's. */
export interface PreprocessInput {
  chat_stream: ChatStream;
  unreads: readonly Message[];
  history_text: string;
  config: NeoChatterConfigValues;
  stream_id?: string;
  chat_type?: ChatKind;
}

// Not async: the bus's promise is handed on as it is. Every NDFC step is one of these (23 a
// turn), and each async layer between the caller and the bus is a promise and a suspended
// frame more per publish, which at 1,000 conversations was a tenth of what the host allocated.
function publish<E extends NdfcEvent>(event: E, params: NdfcEventPayloads[E], options: NdfcPublishOptions): Promise<PublishResult<NdfcEventPayloads[E]>> {
  const typed = params as unknown as EventParams<E>;
  const result = options.bus === undefined ? publishEvent(event, typed) : options.bus.publish(event, typed);
  return result as unknown as Promise<PublishResult<NdfcEventPayloads[E]>>;
}

async function publishForParams<E extends NdfcEvent>(event: E, params: NdfcEventPayloads[E], options: NdfcPublishOptions): Promise<NdfcEventPayloads[E]> {
  return (await publish(event, params, options)).params;
}

/** What the bus answers when nobody subscribes: SUCCESS and the same values. */
function looksUnpublished(result: PublishResult<PreprocessPayload>, prefilled: PreprocessPayload): boolean {
  if (result.decision !== EventDecision.SUCCESS) return false;
  const params = result.params as unknown as Record<string, unknown>;
  return Object.entries(prefilled).every(([key, value]) => params[key] === value);
}

function describeFailure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
const finiteOr = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/**
 * Publishes NDFC's events for the session: each method pre-fills every key of its payload
 * with the seed's defaults, publishes (through `publishEvent`, or `options.bus`), and reads
 * back the result field, also after a STOP. A read-back value of the wrong type gives the
 * field's default. Call sites name the default handler's file on the line above:
 *
 * ```ts
 * // 默认: defaults/fetch_unreads.ts
 * const unreads = await NdfcPublisher.fetchUnreads(streamId);
 * ```
 *
 * 17 methods: the seed's 16 (the Tier II seams and `preprocess`) plus `sessionTransition`,
 * whose event the seed lists among the 17 without counting it among the publisher's 16.
 * Third parties publish NDFC events with `publishEvent(NdfcEvent.X, params)` themselves.
 */
export class NdfcPublisher {
  private constructor() {}

  /**
   * `:preprocess`. Without subscribers the event is not published and the message proceeds
   * (`published` false). A publish that fails proceeds too (fail-open; logged to
   * `options.logger`, the reason in `reason`). Without `options.bus` "no subscribers" is
   * recognised by the bus's answer for that case: SUCCESS with every value unchanged.
   * Handlers: `preprocess/probability-bypass.ts` (100), `preprocess/sub-agent-decision.ts` (50); no default.
   */
  static async preprocess(input: PreprocessInput, options: NdfcPublishOptions = {}): Promise<PreprocessDecision> {
    const params: PreprocessPayload = {
      stream_id: input.stream_id ?? input.chat_stream.streamId,
      chat_type: input.chat_type ?? input.chat_stream.chatType,
      chat_stream: input.chat_stream,
      unreads: [...input.unreads],
      history_text: input.history_text,
      config: withPluginSection(input.config),
      proceed: false,
      reason: '',
      mutations: '',
      force_stop_minutes: null,
    };
    if (options.bus !== undefined && options.bus.subscribers(NdfcEvent.PREPROCESS).length === 0) {
      return new PreprocessDecision({ proceed: true, published: false, raw_params: { ...params } });
    }
    try {
      const result = await publish(NdfcEvent.PREPROCESS, params, options);
      const raw = result.params as unknown as Record<string, unknown>;
      if (options.bus === undefined && looksUnpublished(result, params)) {
        return new PreprocessDecision({ proceed: true, published: false, raw_params: raw });
      }
      return PreprocessDecision.fromParams(raw);
    } catch (error) {
      const reason = describeFailure(error);
      options.logger?.warn({ event: NdfcEvent.PREPROCESS, stream_id: params.stream_id, error: reason }, 'preprocess could not be published; the message proceeds');
      return new PreprocessDecision({ proceed: true, reason: `preprocess 发布失败：${reason}`, published: false, raw_params: { ...params } });
    }
  }

  /** `:fetch_unreads` → `messages` (default `[]`). Default: `defaults/fetch_unreads.ts`. */
  static async fetchUnreads(streamId: string, options: NdfcPublishOptions = {}): Promise<Message[]> {
    const params = await publishForParams(NdfcEvent.FETCH_UNREADS, { stream_id: streamId, messages: [] }, options);
    return Array.isArray(params.messages) ? params.messages : [];
  }

  /** `:format_unread_line` → `formatted_line` (default `''`). Default: `defaults/format_unread_line.ts`. */
  static async formatUnreadLine(streamId: string, message: Message, timeFormat = '%H:%M', options: NdfcPublishOptions = {}): Promise<string> {
    const params = await publishForParams(
      NdfcEvent.FORMAT_UNREAD_LINE,
      { stream_id: streamId, message, time_format: timeFormat, formatted_line: '' },
      options,
    );
    return stringOr(params.formatted_line, '');
  }

  /** `:flush_unreads` → `flushed_count` (default 0). Default: `defaults/flush_unreads.ts`. */
  static async flushUnreads(streamId: string, messages: readonly Message[], options: NdfcPublishOptions = {}): Promise<number> {
    const params = await publishForParams(NdfcEvent.FLUSH_UNREADS, { stream_id: streamId, messages: [...messages], flushed_count: 0 }, options);
    return finiteOr(params.flushed_count, 0);
  }

  /** `:create_request` → `request` (default null). Default: `defaults/create_request.ts`. */
  static async createRequest(
    streamId: string,
    taskName: string,
    requestName = '',
    withReminder: string | null = 'actor',
    options: NdfcPublishOptions = {},
  ): Promise<LLMRequest | null> {
    const params = await publishForParams(
      NdfcEvent.CREATE_REQUEST,
      { stream_id: streamId, task_name: taskName, request_name: requestName, with_reminder: withReminder, request: null },
      options,
    );
    return isObject(params.request) ? params.request : null;
  }

  /**
   * `:inject_usables` → `tool_registry` (default null), with every `extra_tools` entry added
   * to it and declared on `request` (by name, once). Null when no handler filled the registry.
   * Default: `defaults/inject_usables.ts`.
   */
  static async injectUsables(streamId: string, request: LLMRequest, options: NdfcPublishOptions = {}): Promise<UsableSet | null> {
    const params = await publishForParams(NdfcEvent.INJECT_USABLES, { stream_id: streamId, request, tool_registry: null, extra_tools: [] }, options);
    const registry = params.tool_registry;
    if (!isObject(registry) || typeof registry.add !== 'function') return null;
    const extras = Array.isArray(params.extra_tools) ? params.extra_tools : [];
    for (const extra of extras) {
      registry.add(extra);
      if (!request.tools.some((declaration) => declaration.function.name === extra.declaration.function.name)) request.tools.push(extra.declaration);
    }
    return registry;
  }

  /**
   * `:inject_unread_payload`: the default adds `formattedText` to the conversation's request
   * (shared, changed in place; a response is published as the request it continues, so the
   * payload's `response` is always an `LLMRequest`). Resolves to the `skip` read back: true
   * when a handler asked to skip the default. Default: `defaults/inject_unread_payload.ts`.
   */
  static async injectUnreadPayload(
    streamId: string,
    response: LLMRequest | LLMResponse,
    formattedText: string,
    unreadMsgs: readonly Message[] | null,
    nativeMultimodal: boolean,
    options: NdfcPublishOptions = {},
  ): Promise<boolean> {
    const params = await publishForParams(
      NdfcEvent.INJECT_UNREAD_PAYLOAD,
      {
        stream_id: streamId,
        response: 'request' in response ? response.request : response,
        formatted_text: formattedText,
        unread_msgs: unreadMsgs === null ? null : [...unreadMsgs],
        native_multimodal: nativeMultimodal,
        skip: false,
      },
      options,
    );
    return params.skip === true;
  }

  /** `:build_history_text` → `lines` (default `[]`). Default: `defaults/build_history_text.ts`. */
  static async buildHistoryText(streamId: string, chatStream: ChatStream, options: NdfcPublishOptions = {}): Promise<string[]> {
    const params = await publishForParams(NdfcEvent.BUILD_HISTORY_TEXT, { stream_id: streamId, chat_stream: chatStream, lines: [] }, options);
    return Array.isArray(params.lines) ? params.lines : [];
  }

  /** `:build_negative_extra` → `fragments` (default `[]`). Default: `defaults/build_negative_extra.ts`. */
  static async buildNegativeExtra(streamId: string, config: NeoChatterConfigValues | null, options: NdfcPublishOptions = {}): Promise<string[]> {
    const params = await publishForParams(
      NdfcEvent.BUILD_NEGATIVE_EXTRA,
      { stream_id: streamId, config: config === null ? null : withPluginSection(config), fragments: [] },
      options,
    );
    return Array.isArray(params.fragments) ? params.fragments : [];
  }

  /** `:pick_trigger_message` → `trigger` (default null). Default: `defaults/pick_trigger_message.ts`. */
  static async pickTriggerMessage(
    streamId: string,
    chatStream: ChatStream,
    unreads: readonly Message[],
    currentMessage: Message | null,
    history: readonly Message[],
    options: NdfcPublishOptions = {},
  ): Promise<Message | null> {
    const params = await publishForParams(
      NdfcEvent.PICK_TRIGGER_MESSAGE,
      { stream_id: streamId, chat_stream: chatStream, unreads: [...unreads], current_message: currentMessage, history: [...history], trigger: null },
      options,
    );
    return isObject(params.trigger) ? params.trigger : null;
  }

  /** `:build_resume_prompt` → `prompt` (default `''`). Default: `defaults/build_resume_prompt.ts`. */
  static async buildResumePrompt(
    streamId: string,
    resumeEvent: WaitResumeEvent,
    source: string = resumeEvent.source,
    options: NdfcPublishOptions = {},
  ): Promise<string> {
    const params = await publishForParams(NdfcEvent.BUILD_RESUME_PROMPT, { stream_id: streamId, resume_event: resumeEvent, source, prompt: '' }, options);
    return stringOr(params.prompt, '');
  }

  /**
   * `:run_tool_call` → `results` (default `[]`): `[success, needsFollowUp]` per call, in call
   * order; the default adds each call's result to `response`. Default: `defaults/run_tool_call.ts`.
   */
  static async runToolCall(
    streamId: string,
    calls: readonly ToolCall[],
    response: LLMResponse,
    usableMap: UsableSet,
    triggerMsg: Message | null,
    options: NdfcPublishOptions = {},
  ): Promise<ToolCallResult[]> {
    const params = await publishForParams(
      NdfcEvent.RUN_TOOL_CALL,
      { stream_id: streamId, calls: [...calls], response, usable_map: usableMap, trigger_msg: triggerMsg, results: [] },
      options,
    );
    return Array.isArray(params.results) ? params.results : [];
  }

  /** `:dedupe_tool_call` → `is_duplicate` (default false). Default: `defaults/dedupe_tool_call.ts`. */
  static async dedupeToolCall(streamId: string, call: ToolCall, seenSignatures: Set<string>, options: NdfcPublishOptions = {}): Promise<boolean> {
    const params = await publishForParams(
      NdfcEvent.DEDUPE_TOOL_CALL,
      { stream_id: streamId, call, seen_signatures: seenSignatures, is_duplicate: false },
      options,
    );
    return params.is_duplicate === true;
  }

  /** `:format_tool_result` → `result_text` (default `''`). Default: `defaults/format_tool_result.ts`. */
  static async formatToolResult(
    streamId: string,
    callName: string,
    kind: ToolResultKind,
    args: Record<string, unknown>,
    options: NdfcPublishOptions = {},
  ): Promise<string> {
    const params = await publishForParams(
      NdfcEvent.FORMAT_TOOL_RESULT,
      { stream_id: streamId, call_name: callName, kind, args, result_text: '' },
      options,
    );
    return stringOr(params.result_text, '');
  }

  /** `:compute_stop_wake` → `probability` (default 0.0, kept within 0..1). Default: `defaults/compute_stop_wake.ts`. */
  static async computeStopWake(streamId: string, config: NeoChatterConfigValues, chatType: ChatKind, options: NdfcPublishOptions = {}): Promise<number> {
    const params = await publishForParams(
      NdfcEvent.COMPUTE_STOP_WAKE,
      { stream_id: streamId, config: withPluginSection(config), chat_type: chatType, probability: 0 },
      options,
    );
    return Math.min(1, Math.max(0, finiteOr(params.probability, 0)));
  }

  /** `:compute_cooldown` → `cooldown_seconds` (default 0; a negative value reads as 0). Default: `defaults/compute_cooldown.ts`. */
  static async computeCooldown(streamId: string, minutes: number, config: NeoChatterConfigValues, options: NdfcPublishOptions = {}): Promise<number> {
    const params = await publishForParams(
      NdfcEvent.COMPUTE_COOLDOWN,
      { stream_id: streamId, minutes, config: withPluginSection(config), cooldown_seconds: 0 },
      options,
    );
    return Math.max(0, finiteOr(params.cooldown_seconds, 0));
  }

  /** `:session_transition`, observation only (nothing to read back). Default: `defaults/session_transition.ts`. */
  static async sessionTransition(
    streamId: string,
    fromPhase: NdfcSessionPhase,
    toPhase: NdfcSessionPhase,
    turnResult: ChatterResult | null,
    options: NdfcPublishOptions = {},
  ): Promise<void> {
    await publish(NdfcEvent.SESSION_TRANSITION, { stream_id: streamId, from_phase: fromPhase, to_phase: toPhase, turn_result: turnResult }, options);
  }
}

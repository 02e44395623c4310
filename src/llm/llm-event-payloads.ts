import type { LlmRequestFailedError } from './errors/llm-request-failed-error.js';
import type { ModelUsage } from './model-client.js';
import type { LLMPayload } from './payload.js';
import type { ToolCall } from './tool-call.js';
import type { ToolDeclaration } from './tool-declaration.js';

/**
 * `before_llm_request`: published before each send. The payloads and tools are copies made
 * for this send; what the handlers leave in them (edited in place or replaced) is what the
 * model receives. The request's own history is not changed, so an edit is not repeated on
 * the next turn. Filter with `request_name` (NDFC's is `actor`) and `stream_id`.
 */
export interface BeforeLlmRequestPayload {
  /** The request's name (NDFC's is `actor`), for telling requests apart. Leave it unchanged. */
  request_name: string;
  /** The chat stream the request belongs to; `''` for requests outside a stream. */
  stream_id: string;
  /** The model task (in `config/models.toml`) whose models will be tried in order. Leave it unchanged. */
  task_name: string;
  /**
   * A copy of the request's messages for this send; edit them in place or replace the list to
   * change what the model receives (a non-list is ignored with a warning).
   */
  payloads: LLMPayload[];
  /** A copy of the tools offered for this send; change it like `payloads`. */
  tools: ToolDeclaration[];
}

/**
 * `after_llm_request`: published when a model answered. Handlers may change
 * `response_message` and `tool_calls`; the `LLMResponse` carries what they leave.
 */
export interface AfterLlmRequestPayload {
  /** The request's name (NDFC's is `actor`). */
  request_name: string;
  /** The chat stream the request belongs to; `''` for requests outside a stream. */
  stream_id: string;
  /** The model task the answering model belongs to. */
  task_name: string;
  /** The name (in `config/models.toml`) of the model that answered. */
  model: string;
  /**
   * The payloads that were sent. Read them, do not change them: without a
   * `before_llm_request` handler they are the request's own history, not a copy.
   */
  payloads: LLMPayload[];
  /** The model's text; a handler may replace it (a non-string is ignored). */
  response_message: string;
  /** The model's tool calls; a handler may change or replace the list (a non-list is ignored). */
  tool_calls: ToolCall[];
  /** Token counts the provider reported, or undefined when it reported none. Informational. */
  usage: ModelUsage | undefined;
  /** Milliseconds from the first attempt to the answer, fallbacks included. */
  duration_ms: number;
}

/** `on_llm_request_failed`: every model of the task failed; `error` is then thrown by `send()`. */
export interface LlmRequestFailedPayload {
  /** The request's name (NDFC's is `actor`). Observation only: changes are ignored. */
  request_name: string;
  /** The chat stream the request belongs to; `''` for requests outside a stream. */
  stream_id: string;
  /** The model task whose models all failed. */
  task_name: string;
  /** The payloads that were sent (after `before_llm_request` handlers). */
  payloads: LLMPayload[];
  /** The error `send()` throws next, with every model's failure. */
  error: LlmRequestFailedError;
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    /** Before each model request is sent; handlers may edit what the model receives. */
    before_llm_request: BeforeLlmRequestPayload;
    /** When a model answered; handlers may change the answer. */
    after_llm_request: AfterLlmRequestPayload;
    /** When every model of the task failed, just before `send()` throws. */
    on_llm_request_failed: LlmRequestFailedPayload;
  }
}

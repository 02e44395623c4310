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
  request_name: string;
  /** The chat stream the request belongs to; `''` for requests outside a stream. */
  stream_id: string;
  task_name: string;
  payloads: LLMPayload[];
  tools: ToolDeclaration[];
}

/**
 * `after_llm_request`: published when a model answered. Handlers may change
 * `response_message` and `tool_calls`; the `LLMResponse` carries what they leave.
 */
export interface AfterLlmRequestPayload {
  request_name: string;
  stream_id: string;
  task_name: string;
  /** The name (in `config/models.toml`) of the model that answered. */
  model: string;
  /** The payloads that were sent. */
  payloads: LLMPayload[];
  response_message: string;
  tool_calls: ToolCall[];
  usage: ModelUsage | undefined;
  /** Milliseconds from the first attempt to the answer, fallbacks included. */
  duration_ms: number;
}

/** `on_llm_request_failed`: every model of the task failed; `error` is then thrown by `send()`. */
export interface LlmRequestFailedPayload {
  request_name: string;
  stream_id: string;
  task_name: string;
  payloads: LLMPayload[];
  error: LlmRequestFailedError;
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    before_llm_request: BeforeLlmRequestPayload;
    after_llm_request: AfterLlmRequestPayload;
    on_llm_request_failed: LlmRequestFailedPayload;
  }
}

import type { LlmRequestContext } from './llm-request-context.js';
import type { LLMResponse } from './llm-response.js';
import type { LLMPayload } from './payload.js';
import { sendLlmRequest } from './send-llm-request.js';
import type { ToolDeclaration } from './tool-declaration.js';

/** What a request is for and what it starts with (see `LlmService.createRequest`). */
export interface LLMRequestInit {
  /** The task whose models answer (`actor`, `sub_actor`, `vlm`, `utils` ...). */
  taskName: string;
  /** Who asks, for event filters (NDFC's main request is `actor`). */
  requestName: string;
  /** The chat stream the request belongs to; default `''`. */
  streamId?: string;
  payloads?: LLMPayload[];
  tools?: ToolDeclaration[];
}

/** How to send a request. */
export interface SendOptions {
  /** Ask the provider to stream (the response still arrives whole). Default false. */
  stream?: boolean;
  /** Cancels the request; the promise then rejects with the signal's reason and no model fallback happens. */
  signal?: AbortSignal;
}

/**
 * A conversation to send to a task's models. `payloads` and `tools` are plain arrays to
 * edit freely until `send()`; a response's `send()` continues the same request.
 */
export class LLMRequest {
  /** The task whose models answer, tried in order (`config/models.toml [tasks]`). */
  readonly taskName: string;
  /** Who asks, for event filters (NDFC's main request is `actor`). */
  readonly requestName: string;
  /** The chat stream the request belongs to; `''` for requests outside a stream. */
  readonly streamId: string;
  /** The conversation so far, oldest first. */
  payloads: LLMPayload[];
  /** Tools the model may call. */
  tools: ToolDeclaration[];
  readonly #context: LlmRequestContext;

  /** Built by `LlmService.createRequest`, which resolves the task's models. */
  constructor(context: LlmRequestContext, init: LLMRequestInit) {
    this.#context = context;
    this.taskName = init.taskName;
    this.requestName = init.requestName;
    this.streamId = init.streamId ?? '';
    this.payloads = init.payloads ?? [];
    this.tools = init.tools ?? [];
  }

  /** Appends a payload to the conversation. */
  addPayload(payload: LLMPayload): this {
    this.payloads.push(payload);
    return this;
  }

  /**
   * Publishes `before_llm_request`, asks the task's models in order until one answers, and
   * publishes `after_llm_request`. When every model fails it publishes
   * `on_llm_request_failed` and throws `LlmRequestFailedError`.
   */
  send(options: SendOptions = {}): Promise<LLMResponse> {
    return sendLlmRequest(this, this.#context, options);
  }
}

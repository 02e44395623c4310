import { copyPlainData } from '../kernel/copy-plain-data.js';
import type { LLMRequest, SendOptions } from './llm-request.js';
import type { ModelReply, ModelUsage } from './model-client.js';
import type { AssistantPayload } from './payload.js';
import type { ToolCall } from './tool-call.js';

/**
 * A model's answer to an `LLMRequest`. To continue the conversation, add the results of its
 * tool calls with `addToolResult` and call `send()`: the assistant payload (with its tool
 * calls) goes into the request first, then the results, in the order they were added.
 */
export class LLMResponse {
  /** The model's visible text (after `after_llm_request` handlers); `''` when it only called tools. */
  readonly message: string;
  /** Reasoning text from models that expose it (`reasoning_content`); `''` otherwise. */
  readonly reasoning: string;
  /** The tool calls the model asked for (after `after_llm_request` handlers); `[]` when none. */
  readonly toolCalls: readonly ToolCall[];
  /** The name (in `config/models.toml`) of the model that answered. */
  readonly model: string;
  /** Token counts, when the provider reported them. */
  readonly usage: ModelUsage | undefined;
  /** The provider's finish reason (`stop`, `tool_calls`, `length` …); `''` when it sent none. */
  readonly finishReason: string;
  /** The request this answers; `send()` continues it. */
  readonly request: LLMRequest;
  #assistantAppended = false;

  constructor(request: LLMRequest, model: string, reply: ModelReply) {
    this.request = request;
    this.model = model;
    this.message = reply.message;
    this.reasoning = reply.reasoning;
    this.toolCalls = reply.toolCalls;
    this.usage = reply.usage;
    this.finishReason = reply.finishReason;
  }

  /** Appends the result of tool call `callId` (after this response's assistant payload). */
  addToolResult(callId: string, name: string, content: string): this {
    this.#appendAssistant();
    this.request.addPayload({ role: 'tool', tool_call_id: callId, name, content });
    return this;
  }

  /** Appends this response as an assistant payload (once), then sends the request again. */
  send(options: SendOptions = {}): Promise<LLMResponse> {
    this.#appendAssistant();
    return this.request.send(options);
  }

  #appendAssistant(): void {
    if (this.#assistantAppended) return;
    this.#assistantAppended = true;
    const payload: AssistantPayload = { role: 'assistant', content: this.message };
    if (this.toolCalls.length > 0) payload.tool_calls = copyPlainData([...this.toolCalls]);
    this.request.addPayload(payload);
  }
}

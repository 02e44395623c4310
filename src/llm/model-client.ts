import type { LLMPayload } from './payload.js';
import type { ToolCall } from './tool-call.js';
import type { ToolDeclaration } from './tool-declaration.js';

/** One request to a model, as the LLM layer hands it to a `ModelClient`. */
export interface ModelCall {
  /** The provider's own model id (`qwen2.5:7b`, `gpt-4o-mini`), not moonglass's model name. */
  model: string;
  /**
   * The provider's name in `config/models.toml` (`offline` for the demo model). The host's
   * default `TOKENS.ModelClient` sends the call to that provider's client; an override can
   * read it to answer some providers and pass the rest on.
   */
  provider?: string;
  /** The conversation to answer, oldest first, in the OpenAI chat format. */
  payloads: LLMPayload[];
  /** Tools the model may call; an empty list offers none. */
  tools: ToolDeclaration[];
  /** Sampling temperature; omitted means the provider's default. */
  temperature?: number;
  /** Ask the provider to stream the answer (the reply is still returned whole). */
  stream?: boolean;
}

/** Tokens a provider counted for one call. */
export interface ModelUsage {
  /** Tokens of the input (`prompt_tokens`). */
  promptTokens: number;
  /** Tokens of the answer (`completion_tokens`). */
  completionTokens: number;
}

/** A model's whole answer to one `ModelCall`. */
export interface ModelReply {
  /** The visible text; `''` when the model only called tools. */
  message: string;
  /** Reasoning text from models that expose it (`reasoning_content`); `''` otherwise. */
  reasoning: string;
  /** The tool calls the model asked for, in its order; `[]` when none. */
  toolCalls: ToolCall[];
  /** The provider's finish reason (`stop`, `tool_calls`, `length` ...); `''` when it sent none. */
  finishReason: string;
  /** Token counts, when the provider reported them. */
  usage: ModelUsage | undefined;
}

/**
 * The seam between the LLM layer and a model: an OpenAI-compatible endpoint, the offline
 * scripted model, or a test double. Implementations throw `ModelRequestError` for a failed
 * call (the LLM layer then falls back to the task's next model) and reject with the
 * signal's reason when `signal` aborts.
 */
export interface ModelClient {
  /**
   * Answers one call: resolves to the whole reply, throws `ModelRequestError` when the call
   * failed, rejects with the signal's reason when `signal` aborts.
   */
  complete(call: ModelCall, signal: AbortSignal): Promise<ModelReply>;
}

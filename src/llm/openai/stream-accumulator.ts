import type { ModelReply, ModelUsage } from '../model-client.js';
import type { ChatCompletionChunk } from './chat-completion-schema.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import { parseUsage } from './parse-usage.js';
import { toolCallId } from './tool-call-id.js';

interface PartialToolCall {
  id: string | undefined;
  name: string;
  /** Argument text concatenated across chunks. */
  argumentsText: string;
  /** Arguments some servers send whole, as an object. */
  argumentsObject: unknown;
}

/**
 * Builds one `ModelReply` from the chunks of a streamed answer (first choice): content and
 * reasoning are concatenated; tool calls are keyed by `index`, taking `id` and `name` from
 * the first chunk that has them and concatenating `arguments`.
 */
export class StreamAccumulator {
  #message = '';
  #reasoning = '';
  #finishReason = '';
  #usage: ModelUsage | undefined;
  readonly #toolCalls = new Map<number, PartialToolCall>();
  #lastIndex = -1;

  /** True once a chunk carried a finish reason. */
  get finished(): boolean {
    return this.#finishReason !== '';
  }

  add(chunk: ChatCompletionChunk): void {
    this.#usage = parseUsage(chunk.usage) ?? this.#usage;
    const choice = chunk.choices?.[0];
    if (choice === undefined) return;
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.#finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (delta === null || delta === undefined) return;
    this.#message += delta.content ?? '';
    this.#reasoning += delta.reasoning_content ?? delta.reasoning ?? '';
    for (const part of delta.tool_calls ?? []) {
      const index = this.#indexOf(part.index, part.id);
      let call = this.#toolCalls.get(index);
      if (call === undefined) {
        call = { id: undefined, name: '', argumentsText: '', argumentsObject: undefined };
        this.#toolCalls.set(index, call);
      }
      this.#lastIndex = index;
      if (call.id === undefined && typeof part.id === 'string' && part.id !== '') call.id = part.id;
      const name = part.function?.name;
      if (call.name === '' && typeof name === 'string') call.name = name;
      const args = part.function?.arguments;
      if (typeof args === 'string') call.argumentsText += args;
      else if (args !== undefined && args !== null) call.argumentsObject = args;
    }
  }

  /** The reply so far. */
  reply(): ModelReply {
    const toolCalls = [...this.#toolCalls.entries()]
      .sort(([left], [right]) => left - right)
      .map(([index, call]) => ({
        id: toolCallId(call.id, index, call.name),
        name: call.name,
        args: parseToolArguments(call.argumentsText !== '' ? call.argumentsText : call.argumentsObject),
      }));
    return { message: this.#message, reasoning: this.#reasoning, toolCalls, finishReason: this.#finishReason, usage: this.#usage };
  }

  /** The call a part belongs to: its `index`; without one, the call with its `id`, a new call for a new id, else the last call. */
  #indexOf(index: number | undefined, id: string | null | undefined): number {
    if (index !== undefined) return index;
    if (typeof id === 'string' && id !== '') {
      for (const [known, call] of this.#toolCalls) if (call.id === id) return known;
      return this.#toolCalls.size === 0 ? 0 : Math.max(...this.#toolCalls.keys()) + 1;
    }
    return Math.max(this.#lastIndex, 0);
  }
}

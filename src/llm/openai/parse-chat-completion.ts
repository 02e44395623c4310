import type { ModelReply } from '../model-client.js';
import type { ChatCompletion } from './chat-completion-schema.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import { parseUsage } from './parse-usage.js';
import { toolCallId } from './tool-call-id.js';

/** A validated non-streaming answer as a `ModelReply` (first choice; `content: null` becomes `''`). */
export function parseChatCompletion(completion: ChatCompletion): ModelReply {
  // The schema requires at least one choice.
  const choice = completion.choices[0]!;
  const message = choice.message;
  return {
    message: message.content ?? '',
    reasoning: message.reasoning_content ?? message.reasoning ?? '',
    toolCalls: (message.tool_calls ?? []).map((call, index) => ({
      id: toolCallId(call.id, index, call.function.name),
      name: call.function.name,
      args: parseToolArguments(call.function.arguments),
    })),
    finishReason: choice.finish_reason ?? '',
    usage: parseUsage(completion.usage),
  };
}

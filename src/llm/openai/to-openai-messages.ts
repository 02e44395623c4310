import type { LLMPayload } from '../payload.js';
import type { ToolCall } from '../tool-call.js';

/** One message of an OpenAI chat completions request body. */
export type OpenAiMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: unknown }
  | { role: 'assistant'; content: string; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool call as the OpenAI format writes it in an assistant message. */
export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * The arguments as the JSON string the API expects. Arguments that arrived as invalid JSON
 * (kept as `{ _raw }`) go back verbatim, so the model sees what it actually wrote.
 */
function argumentsText(call: ToolCall): string {
  const keys = Object.keys(call.args);
  const raw = call.args['_raw'];
  if (keys.length === 1 && typeof raw === 'string') return raw;
  return JSON.stringify(call.args);
}

function toOpenAiToolCall(call: ToolCall): OpenAiToolCall {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: argumentsText(call) } };
}

/** Converts payloads to the `messages` of an OpenAI chat completions request. */
export function toOpenAiMessages(payloads: readonly LLMPayload[]): OpenAiMessage[] {
  return payloads.map((payload): OpenAiMessage => {
    switch (payload.role) {
      case 'system':
        return { role: 'system', content: payload.content };
      case 'user':
        return { role: 'user', content: payload.content };
      case 'assistant':
        if (payload.tool_calls === undefined || payload.tool_calls.length === 0) return { role: 'assistant', content: payload.content };
        return { role: 'assistant', content: payload.content, tool_calls: payload.tool_calls.map(toOpenAiToolCall) };
      case 'tool':
        // `name` is not part of the OpenAI tool message; strict servers reject unknown keys.
        return { role: 'tool', tool_call_id: payload.tool_call_id, content: payload.content };
      default: {
        const unknownPayload: never = payload;
        throw new TypeError(`unknown payload role: ${JSON.stringify(unknownPayload)}`);
      }
    }
  });
}

import type { ModelCall } from '../model-client.js';
import { toOpenAiMessages } from './to-openai-messages.js';

/** The JSON body of `POST /chat/completions` for one call. */
export function buildChatRequestBody(call: ModelCall): Record<string, unknown> {
  const body: Record<string, unknown> = { model: call.model, messages: toOpenAiMessages(call.payloads) };
  // No `tool_choice`: `auto` is the default, and vLLM refuses an explicit `auto` unless started with extra flags.
  if (call.tools.length > 0) body['tools'] = call.tools;
  if (call.temperature !== undefined) body['temperature'] = call.temperature;
  if (call.stream === true) {
    body['stream'] = true;
    body['stream_options'] = { include_usage: true };
  }
  return body;
}

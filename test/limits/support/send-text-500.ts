import { completion, type FakeHandler } from '../../llm/support/fake-openai-server.js';

/** A model answer calling send_text(content), the provider reporting 400 prompt and 100 completion tokens (500 in all). */
export const sendText500 = (content: string): FakeHandler =>
  completion(
    { content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'send_text', arguments: JSON.stringify({ content }) } }] },
    'tool_calls',
    { prompt_tokens: 400, completion_tokens: 100, total_tokens: 500 },
  );

import { afterEach, describe, expect, it } from 'vitest';
import { createTestHost, type TestHost } from '../../src/testing/create-test-host.js';
import { completion, FakeOpenAiServer, type FakeHandler } from '../llm/support/fake-openai-server.js';

// Issue 15 item 8 over the wire: an OpenAI-compatible server on loopback answers with a
// send_text call whose arguments are cut-off JSON; the tool result the model gets back in the
// next request says the arguments were not valid JSON, not that `content` was missing.

const brokenCall: FakeHandler = completion(
  { content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'send_text', arguments: '{"content": "你好' } }] },
  'tool_calls',
);

describe('tool arguments that are not valid JSON', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('[issue 15.8] are reported to the model as not valid JSON, with what it wrote, and nothing is sent', async () => {
    const model = await FakeOpenAiServer.start();
    closers.push(() => model.close());
    model.reply(brokenCall, completion({ content: '' }));
    const test: TestHost = await createTestHost({
      modelsConfig: { providers: { loopback: { base_url: model.baseUrl } }, models: { main: { provider: 'loopback', model: 'chat' } }, tasks: { actor: { models: ['main'] } } },
      pluginConfigs: { neo_default_chatter: '[plugin]\nenable_action_suspend = false\n' },
    });
    closers.push(() => test.stop());
    await test.adapter.send('你好');
    for (let step = 0; step < 200 && model.requests.length < 2; step += 1) await test.settle(100);
    expect(model.requests.length).toBeGreaterThanOrEqual(2);
    const messages = model.requests[1]!.body['messages'] as { role: string; content: string }[];
    const result = messages.find((message) => message.role === 'tool')!;
    expect(result.content).toMatch(/arguments are not valid JSON/);
    expect(result.content).toContain('{"content": "你好');
    expect(result.content).not.toMatch(/参数 content/);
    expect(test.adapter.texts()).toEqual([]);
  });
});

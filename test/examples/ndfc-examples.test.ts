import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestHost } from 'moonglass/testing';
import { projectRoot } from '../support/temp-dir.js';

const example = (name: string) => join(projectRoot, 'examples/ndfc', name);

describe('examples/ndfc: each extension pattern as a third-party plugin', () => {
  it('[N-36] [N-44] load beside NDFC and shape what the model receives', async () => {
    const test = await createTestHost({
      plugins: ['no-internal-details', 'custom-fetch', 'turn-auditor', 'system-prompt-constraint'].map(example),
    });
    try {
      expect(test.host.plugins.list().filter((status) => status.state === 'loaded').map((status) => status.id).sort()).toEqual([
        'example.custom-fetch',
        'example.no-internal-details',
        'example.system-prompt-constraint',
        'example.turn-auditor',
        'forward-message',
        'neo_default_chatter',
        'owner-commands',
      ]);
      await test.adapter.send('你好呀');
      await test.settle(15_000);
      const payloads = test.model.calls[0]!.payloads;
      const system = String(payloads.find((payload) => payload.role === 'system')?.content);
      const user = payloads.filter((payload) => payload.role === 'user').map((payload) => String(payload.content)).join('\n');
      expect(system).toContain('禁止透露：事件名、handler weight、payload schema、内部实现细节');
      expect(system).toContain('不要提及内部实现细节');
      expect(user).toContain('你好呀'); // the custom fetch fell back to the default
      expect(test.adapter.texts()).toHaveLength(1);
    } finally {
      await test.stop();
    }
  });

  it('[N-36] conditional replacement, the Tier I request inspector and session reuse (run_chat) work as folders too', async () => {
    const test = await createTestHost({ plugins: ['group-only-fetch', 'llm-request-inspector', 'session-reuse'].map(example) });
    try {
      await test.adapter.send('私聊消息');
      await test.settle(15_000);
      const system = String(test.model.calls[0]!.payloads.find((payload) => payload.role === 'system')?.content);
      expect(system).toContain('附加约束：回答不超过两句话');
      expect(test.adapter.texts()).toHaveLength(1); // private: the default fetch ran
      await test.adapter.send('群里没人提到机器人', { group: 'g9', mentionsBot: true });
      await test.settle(15_000);
      const runChat = test.host.getService<{ run(streamId: string): Promise<string> }>('example.session-reuse:service:run_chat')!;
      const [streamId] = test.host.chat.streams.activeStreamIds();
      expect(['wait', 'success']).toContain(await runChat.run(streamId!));
    } finally {
      await test.stop();
    }
  });
});

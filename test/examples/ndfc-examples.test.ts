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
        'neo_default_chatter',
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
});

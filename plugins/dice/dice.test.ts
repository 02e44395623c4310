// A test beside its plugin: `npm test` finds plugins/<name>/*.test.ts as well as test/.
import { describe, expect, it } from 'vitest';
import { createTestHost } from 'moonglass/testing';

describe('plugins/dice, tested from its own folder', () => {
  it('rolls when the model calls roll_dice, and the model hears the roll', async () => {
    const test = await createTestHost({
      plugins: ['plugins/dice'],
      // Partial replies: what is left out takes its empty value.
      script: [
        { toolCalls: [{ id: 'c1', name: 'roll_dice', args: { count: 2, sides: 6 } }] },
        { toolCalls: [{ id: 'c2', name: 'send_text', args: { content: '掷好了' } }] },
        { message: '' }, // nothing more to say: the turn ends
      ],
      pluginConfigs: { neo_default_chatter: '[plugin]\nenable_action_suspend = false\n' },
    });
    try {
      await test.adapter.send('帮我掷两个骰子');
      await test.settle(15_000);
      const result = test.model.calls[1]?.payloads.find((payload) => payload.role === 'tool');
      expect(String(result?.content)).toMatch(/^2d6: [1-6] \+ [1-6] = \d+$/);
      expect(test.adapter.texts()).toEqual(['掷好了']);
    } finally {
      await test.stop();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { createTestHost } from 'moonglass/testing';

describe('plugins/dice in a test host', () => {
  it('loads from its folder and the demo model answers beside it', async () => {
    const test = await createTestHost({ plugins: ['plugins/dice'] });
    await test.adapter.send('你好');
    await test.settle(10_000);
    const replies = test.adapter.texts();
    const owner = test.host.tools.get('roll_dice')?.owner;
    await test.stop();
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatch(/^（演示模型）收到：[\s\S]*你好/);
    expect(owner).toBe('example.dice');
  });
});

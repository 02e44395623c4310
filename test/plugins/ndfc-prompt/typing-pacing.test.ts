import { describe, expect, it } from 'vitest';
import type { TestHost } from '../../../src/testing/create-test-host.js';
import { toolReply, useTestHosts } from '../../support/ndfc.js';

/** Records when each delivery reached the platform, on the manual clock. */
function deliveryTimes(test: TestHost): number[] {
  const times: number[] = [];
  const deliver = test.adapter.deliver.bind(test.adapter);
  test.adapter.deliver = (delivery) => (times.push(test.clock.now()), deliver(delivery));
  return times;
}

// bot.toml's real buffer (1 s; the test host's default is 0) and NDFC's own defaults: 0.5 s a
// character, at most 10 s. The model's latency runs on the manual clock.
describe('NDFC typing delay (issue 15, item 12)', () => {
  const start = useTestHosts();

  const hostWithModel = (latencyMs: number, replies: string[]) => {
    let test: TestHost | undefined;
    let asked = false;
    return start({
      botConfig: { chat: { message_buffer_seconds: 1 } },
      script: async () => {
        await test!.clock.sleep(latencyMs);
        if (asked) return toolReply([]);
        asked = true;
        return toolReply(replies.map((content) => ({ name: 'send_text', args: { content } })));
      },
    }).then((started) => (test = started));
  };

  it('[issue 15] counts from the arrival of the message being answered: a 3 s model and a 2 s reply send 4 s after it (1 s buffer + 3 s), not 6 s', async () => {
    const test = await hostWithModel(3_000, ['一二三四']);
    const sentAt = deliveryTimes(test);
    const arrival = test.clock.now();
    await test.adapter.send('在吗');
    await test.settle(10_000);
    expect(test.adapter.texts()).toEqual(['一二三四']);
    // settle moves time in 50 ms steps.
    expect(sentAt[0]! - arrival).toBeGreaterThanOrEqual(4_000);
    expect(sentAt[0]! - arrival).toBeLessThanOrEqual(4_100);
  });

  it('[issue 15] a long reply is typed while the model thinks: 20 characters (10 s, the cap) after a 1 s model go out 10 s after the message, not 12 s', async () => {
    const test = await hostWithModel(1_000, ['一二三四五六七八九十一二三四五六七八九十']);
    const sentAt = deliveryTimes(test);
    const arrival = test.clock.now();
    await test.adapter.send('讲个故事');
    await test.settle(15_000);
    expect(sentAt).toHaveLength(1);
    expect(sentAt[0]! - arrival).toBeGreaterThanOrEqual(10_000);
    expect(sentAt[0]! - arrival).toBeLessThanOrEqual(10_100);
  });

  it('[issue 15] the second send of a turn is still typed after the first: its own delay counts from the previous send', async () => {
    const test = await hostWithModel(500, ['一二三四', '五六七八九十']);
    const sentAt = deliveryTimes(test);
    const arrival = test.clock.now();
    await test.adapter.send('说两句');
    await test.settle(10_000);
    expect(test.adapter.texts()).toEqual(['一二三四', '五六七八九十']);
    // First: 2 s from the arrival. Second: 3 s from the first send.
    expect(sentAt[0]! - arrival).toBeGreaterThanOrEqual(2_000);
    expect(sentAt[0]! - arrival).toBeLessThanOrEqual(2_100);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(3_000);
    expect(sentAt[1]! - sentAt[0]!).toBeLessThanOrEqual(3_100);
  });
});

import { describe, expect, it } from 'vitest';
import { withDeliveryFailure } from '../../../src/chat/delivery-failure.js';
import { toolReply, useTestHosts } from '../../support/ndfc.js';

// Issue 13, item 1: a reply the outbox had to drop is something the chatter's next turn
// can see, so the model does not go on as if the other side had read it.

describe('NDFC after a reply was dropped undelivered', () => {
  const start = useTestHosts();

  it('[issue 13] the next turn of the same session is told which reply never arrived', async () => {
    const test = await start({
      script: [toolReply([{ name: 'send_text', args: { content: '明天下午三点见' } }]), toolReply([{ name: 'send_text', args: { content: '刚才说的是三点' } }])],
      botConfig: { chat: { send_deadline_seconds: 30 } },
    });
    const adapter = test.host.outboundSink;
    let refusing = true;
    test.host.setOutboundSink({
      deliver: async (delivery) => {
        if (refusing) throw withDeliveryFailure(new Error('no OneBot connection'), 'retry');
        return adapter.deliver(delivery);
      },
    });
    await test.adapter.send('我们什么时候见？');
    await test.settle(60_000); // typed, kept, then past its 30 s deadline
    expect(test.host.chat.streams.outbox.pendingCount()).toBe(0);
    refusing = false;
    await test.adapter.send('在吗？');
    await test.settle(15_000);
    expect(test.model.calls).toHaveLength(2);
    const prompt = JSON.stringify(test.model.calls[1]!.payloads.at(-1));
    expect(prompt).toContain('你之前发的「明天下午三点见」没有送达');
    expect(test.adapter.texts()).toEqual(['刚才说的是三点']);
  });
});

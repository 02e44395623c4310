import { describe, expect, it } from 'vitest';
import type { InboundAck } from '../../../src/adapters/adapter-context.js';
import { OneBotAdapter } from '../../../src/adapters/onebot_v11/onebot-adapter.js';
import { ReverseServer } from '../../../src/adapters/onebot_v11/reverse-server.js';
import type { InboundEnvelope } from '../../../src/chat/inbound-envelope.js';
import { until } from '../../support/until.js';
import { createPeer, startReverse, useAdapterCleanup } from './adapter-fixture.js';
import { createFakeContext, type FakeContextOptions } from './fake-adapter-context.js';

useAdapterCleanup();

// Issue 13 item 4: no head-of-line blocking. Messages of one connection go to the host in
// arrival order within a chat (a group, or a private chat's user), and concurrently across
// chats: a message the host is slow to take delays only its own chat.

/** receive() answers that hold every envelope whose content is `slow` until released. */
function holdSlow(): { options: FakeContextOptions; release(): void } {
  const held: Array<() => void> = [];
  let released = false;
  return {
    options: {
      answer: (envelope: InboundEnvelope) =>
        envelope.content === 'slow' && !released
          ? new Promise<InboundAck>((resolve) => held.push(() => resolve({ stored: true, status: 'delivered' })))
          : Promise.resolve({ stored: true, status: 'delivered' }),
    },
    release() {
      released = true;
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

describe('OneBot adapter inbound order', () => {
  describe('when the host is slow to take one message', () => {
    it('hands over the messages of other chats meanwhile, and the rest of its own chat only after it', async () => {
      const slow = holdSlow();
      const { fake, peer, connect } = await startReverse({}, slow.options);
      await connect();
      peer.pushPrivateMessage({ userId: 20001, message: 'slow' });
      peer.pushPrivateMessage({ userId: 20001, message: 'after slow' });
      peer.pushPrivateMessage({ userId: 20002, message: 'other user' });
      peer.pushGroupMessage({ groupId: 30001, userId: 20001, message: 'group' });
      peer.pushGroupMessage({ groupId: 30001, userId: 20003, message: 'group again' });
      await fake.waitForReceived(4);
      expect(fake.received.map((envelope) => envelope.content)).toEqual(['slow', 'other user', 'group', 'group again']);
      slow.release();
      await fake.waitForReceived(5);
      expect(fake.received.at(-1)?.content).toBe('after slow');
    });

    it('keeps a group apart from the private chat of the same number', async () => {
      const slow = holdSlow();
      const { fake, peer, connect } = await startReverse({}, slow.options);
      await connect();
      peer.pushGroupMessage({ groupId: 20001, message: 'slow' });
      peer.pushPrivateMessage({ userId: 20001, message: 'private 20001' });
      await fake.waitForReceived(2);
      expect(fake.received.map((envelope) => [envelope.chat_type, envelope.content])).toEqual([
        ['group', 'slow'],
        ['private', 'private 20001'],
      ]);
      slow.release();
    });
  });

  it('keeps arrival order within a chat while the host answers out of order', async () => {
    const delays = new Map([['one', 60], ['two', 0], ['three', 30]]);
    const { fake, peer, connect } = await startReverse(
      {},
      {
        answer: (envelope) =>
          new Promise((resolve) => setTimeout(() => resolve({ stored: true, status: 'delivered' }), delays.get(envelope.content) ?? 0)),
      },
    );
    await connect();
    for (const text of delays.keys()) peer.pushGroupMessage({ groupId: 30001, message: text });
    await fake.waitForReceived(3);
    expect(fake.received.map((envelope) => envelope.content)).toEqual(['one', 'two', 'three']);
  });

  it('forgets a chat once its messages are handed over (no entry per chat ever seen)', async () => {
    const slow = holdSlow();
    const fake = createFakeContext({ mode: 'reverse', reverse: { port: 0 } }, slow.options);
    const adapter = new OneBotAdapter(fake.context);
    const server = new ReverseServer({ ...fake.context.config.reverse, accessToken: '', logger: fake.context.logger }, adapter);
    await adapter.start(server);
    const peer = createPeer();
    try {
      peer.connectReverse({ url: `ws://127.0.0.1:${server.port}/onebot/v11/ws` });
      await peer.waitForConnection();
      peer.pushPrivateMessage({ userId: 20001, message: 'slow' });
      for (let user = 1; user <= 20; user += 1) peer.pushPrivateMessage({ userId: 40000 + user, message: `from ${user}` });
      await fake.waitForReceived(21);
      await until(() => adapter.pendingInboundChats === 1, { what: 'only the held chat pending', timeoutMs: 5000 });
      expect(adapter.pendingInboundChats).toBe(1);
      slow.release();
      await until(() => adapter.pendingInboundChats === 0, { what: 'no chat pending', timeoutMs: 5000 });
      expect(adapter.pendingInboundChats).toBe(0);
    } finally {
      await peer.close();
      await adapter.stop();
    }
  });
});

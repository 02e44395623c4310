import { describe, expect, it } from 'vitest';
import { createTestHost } from '../../src/testing/create-test-host.js';

// Issue 13, item 9 at the host: idle conversations leave memory and come back from the
// database; the inbound cap and retention are wired from the config files' settings.

describe('a running host', () => {
  it('drops a conversation idle past [chat] idle_evict_seconds from memory, and answers its next message from the stored history', async () => {
    const test = await createTestHost({ appConfig: { chat: { idle_evict_seconds: 60, max_inbound_chars: 20_000 } } as never });
    try {
      await test.adapter.send('你好');
      await test.settle(15_000);
      expect(test.adapter.texts()).toHaveLength(1);
      const [streamId] = test.host.chat.streams.activeStreamIds();
      expect(test.host.chat.loop.driverOf(streamId!)).toBeDefined();
      await test.settle(59_000);
      expect(test.host.chat.streams.activeStreamIds()).toEqual([streamId]); // not yet idle long enough
      await test.settle(60_000);
      expect(test.host.chat.streams.activeStreamIds()).toEqual([]);
      expect(test.host.chat.loop.driverOf(streamId!)).toBeUndefined();

      await test.adapter.send('还在吗');
      await test.settle(15_000);
      expect(test.adapter.texts()).toHaveLength(2);
      const stream = test.host.chat.streams.getStream(streamId!)!;
      expect(stream.history.map((message) => message.content)).toEqual(expect.arrayContaining(['你好', '还在吗']));
    } finally {
      await test.stop();
    }
  });

  it('keeps a conversation with a reply still in the outbox in memory, however long it waits', async () => {
    const test = await createTestHost({ appConfig: { chat: { idle_evict_seconds: 60, max_inbound_chars: 20_000 } } as never });
    try {
      const sink = test.host.outboundSink;
      let up = false;
      test.host.setOutboundSink({
        deliver: async (delivery) => {
          if (!up) throw new Error('NapCat is restarting');
          return sink.deliver(delivery);
        },
      });
      await test.adapter.send('你好');
      await test.settle(200_000);
      expect(test.host.chat.streams.outbox.pendingCount()).toBe(1);
      expect(test.host.chat.streams.activeStreamIds()).toHaveLength(1);
      up = true;
      await test.settle(20_000);
      expect(test.adapter.texts()).toHaveLength(1);
      expect(test.host.chat.streams.outbox.pendingCount()).toBe(0);
    } finally {
      await test.stop();
    }
  });

  it('cuts inbound text at features.toml [chat] max_inbound_chars', async () => {
    const test = await createTestHost({ appConfig: { chat: { max_inbound_chars: 100, idle_evict_seconds: 1800 } } as never });
    try {
      const outcome = await test.adapter.send('长'.repeat(5_000));
      expect(outcome.status).toBe('delivered');
      const message = (outcome as { message: { content: string } }).message;
      expect(message.content.length).toBeLessThan(200);
      expect(message.content).toContain('已截断');
    } finally {
      await test.stop();
    }
  });

  it('applies bot.toml [storage] keep_days a minute after start, on the clock', async () => {
    const test = await createTestHost({ botConfig: { storage: { keep_days: 1 } } });
    try {
      await test.adapter.send('很久以前的话');
      await test.settle(15_000);
      expect(test.host.chat.database.messages.countSince(0)).toEqual({ inbound: 1, outbound: 1 });
      await test.clock.advance(2 * 24 * 3600 * 1000); // two days: the daily pass removes what is older than one
      await test.settle(0);
      expect(test.host.chat.database.messages.countSince(0)).toEqual({ inbound: 0, outbound: 0 });
      expect(test.logs.some((record) => /^retention: removed 2 messages/.test(record.msg))).toBe(true);
    } finally {
      await test.stop();
    }
  });
});

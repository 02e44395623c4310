import { join } from 'node:path';
import { Ingress } from '../../src/chat/ingress.js';
import type { Message } from '../../src/chat/message.js';
import type { OutboundDelivery, OutboundSink } from '../../src/chat/outbound-sink.js';
import { StreamManager } from '../../src/chat/stream-manager.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { createTestBus } from './bus.js';

/** A sink that records deliveries and answers with sequential ids (or fails when told to). */
export class RecordingSink implements OutboundSink {
  readonly deliveries: OutboundDelivery[] = [];
  failNext: Error | undefined;
  async deliver(delivery: OutboundDelivery): Promise<{ messageId: string }> {
    if (this.failNext !== undefined) {
      const error = this.failNext;
      this.failNext = undefined;
      throw error;
    }
    this.deliveries.push(delivery);
    return { messageId: `sent-${this.deliveries.length}` };
  }
}

/** Ingress and streams over a real SQLite file in `directory`. */
export function createChatHarness(directory: string) {
  const testBus = createTestBus();
  const database = openDatabase({ file: join(directory, 'moonglass.db'), logger: testBus.logger });
  const sink = new RecordingSink();
  const streams = new StreamManager({
    database,
    bus: testBus.bus,
    clock: testBus.clock,
    logger: testBus.logger,
    sink: () => sink,
    bot: { name: '月璃', accountFor: (platform) => `${platform}-bot` },
  });
  const delivered: Message[] = [];
  const ingress = new Ingress({ database, streams, bus: testBus.bus, clock: testBus.clock, logger: testBus.logger, onDelivered: (message) => delivered.push(message) });
  return { ...testBus, database, sink, streams, ingress, delivered };
}

export const privateEnvelope = (id: string | number, content: string, user = '10001') => ({
  platform: 'qq',
  message_id: id,
  chat_type: 'private' as const,
  sender: { id: user, name: '阿明' },
  content,
});

export const groupEnvelope = (id: string | number, content: string, group = '555', user = '10001') => ({
  platform: 'qq',
  message_id: id,
  chat_type: 'group' as const,
  group: { id: group, name: '测试群' },
  sender: { id: user, name: '阿明', card: '明明', role: 'member' },
  content,
});

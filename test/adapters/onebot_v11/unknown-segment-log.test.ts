import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { OneBotAdapter } from '../../../src/adapters/onebot_v11/onebot-adapter.js';
import { createFakeContext } from './fake-adapter-context.js';

// Issue 17 item 3: a segment of a type the adapter does not know is kept as a placeholder,
// never dropped silently: the adapter says which type it was.
describe('OneBotAdapter', () => {
  it('logs a segment it does not know, naming the message and the type, and still passes the message on', async () => {
    const fake = createFakeContext({ mode: 'reverse', reverse: { port: 0 } });
    const adapter = new OneBotAdapter(fake.context);
    const socket = new EventEmitter() as unknown as WebSocket;
    adapter.opened(socket, '10000', 'QQ 10000 connected from 127.0.0.1:1');
    const frame = {
      post_type: 'message',
      message_type: 'private',
      sub_type: 'friend',
      time: 1_700_000_000,
      self_id: 10000,
      message_id: 77,
      user_id: 42,
      message: [
        { type: 'text', data: { text: 'look ' } },
        { type: 'hologram', data: { id: '9' } },
      ],
      raw_message: 'look [CQ:hologram,id=9]',
      font: 0,
      sender: { user_id: 42, nickname: 'Ann' },
    };
    adapter.frame(socket, JSON.stringify(frame));
    await fake.waitForReceived(1);

    const warnings = fake.logs.filter((line) => line.level === 'warn' && line.msg.startsWith('OneBot segment kept as a placeholder'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toContain('message 77');
    expect(warnings[0]!.msg).toContain('hologram');
    expect(fake.received.map((envelope) => envelope.content)).toEqual(['look [hologram]']);
  });
});

import { describe, expect, it } from 'vitest';
import { useTestHosts } from '../support/ndfc.js';

// Issue 18 groundwork: inbound gates (commands, guests, rate limits) decide between
// on_message_received and storage. A message a gate takes is stored as read, in the same
// transaction, so no chatter answers it, and the gate's follow-up runs once it is stored.

describe('inbound gates', () => {
  const start = useTestHosts();

  it('a taken message is stored as read and never reaches the chatter; afterStored runs once it is in the database', async () => {
    const test = await start();
    const seenStored: boolean[] = [];
    test.host.chat.gates.add({
      name: 'bang commands',
      order: 200,
      check: (message) =>
        message.content.startsWith('!')
          ? { pass: false, reason: 'a bang command', afterStored: () => void seenStored.push(test.host.chat.database.messages.get(message.streamId, 'inbound', message.messageId) !== undefined) }
          : { pass: true },
    });
    const taken = await test.adapter.send('!ping');
    expect(taken).toMatchObject({ status: 'stopped', reason: 'a bang command' });
    const streamId = taken.status === 'stopped' ? taken.message.streamId : '';
    await test.settle(10_000);
    expect(seenStored).toEqual([true]);
    expect(test.host.chat.database.messages.unread(streamId)).toEqual([]);
    expect(test.model.calls).toEqual([]);
    expect(test.adapter.sent).toEqual([]);
    expect(test.logs.some((record) => record['msg'] === 'a message was not passed to the chatter: a bang command' && record['gate'] === 'bang commands')).toBe(true);

    const passed = await test.adapter.send('hello');
    expect(passed.status).toBe('delivered');
    await test.settle(20_000);
    expect(test.adapter.texts().some((text) => text.includes('hello'))).toBe(true);
  });

  it('runs gates in order; one that throws is logged and the message goes on (a broken gate loses nothing); removal takes a gate out', async () => {
    const test = await start();
    const order: string[] = [];
    test.host.chat.gates.add({ name: 'second', order: 300, check: () => (order.push('second'), { pass: true }) });
    const removeBroken = test.host.chat.gates.add({
      name: 'broken',
      order: 100,
      check: () => {
        order.push('broken');
        throw new Error('gate bug');
      },
    });
    const outcome = await test.adapter.send('still answered');
    expect(outcome.status).toBe('delivered');
    expect(order).toEqual(['broken', 'second']);
    expect(test.logs.some((record) => record['msg'] === 'an inbound gate failed; the message goes on' && record['gate'] === 'broken')).toBe(true);
    removeBroken();
    await test.adapter.send('again');
    expect(order).toEqual(['broken', 'second', 'second']);
  });
});

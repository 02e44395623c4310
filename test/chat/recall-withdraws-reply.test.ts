import { describe, expect, it } from 'vitest';
import { streamIdFor } from '../../src/chat/stream-id.js';
import { createChatHarness, privateEnvelope } from '../support/chat.js';
import { useTempDir } from '../support/temp-dir.js';

// Issue 17 item 2: a recall stops an answer that had not been sent yet: one still being
// thought about (the chatter took the message, the model has not answered), and one queued
// in the outbox behind its typing delay. Nothing is dropped silently: the withdrawn reply is
// stored as undelivered with its reason, and logged.

const account = '10000';
const stream = streamIdFor({ platform: 'qq', account, chatType: 'private', userId: '10001' });
const recall = (messageId: string) => ({
  platform: 'qq',
  self_id: account,
  time: 1,
  kind: 'notice' as const,
  notice: { notice_type: 'friend_recall' as const, user_id: '10001', message_id: messageId },
});

async function harnessWith(directory: string, ...messages: [string, string][]) {
  const harness = createChatHarness(directory);
  for (const [id, text] of messages) await harness.ingress.receive({ ...privateEnvelope(id, text), account });
  return harness;
}

describe('a recall and the answer to the recalled message', () => {
  const tempDir = useTempDir();

  it('withdraws a queued reply (typing delay not over) that answers only the recalled message', async () => {
    const { streams, ingress, database, sink, records } = await harnessWith(tempDir(), ['m1', 'please forget this']);
    streams.holdReads(stream);
    streams.flushUnreads(stream, streams.fetchUnreads(stream));
    const sending = streams.send(stream, { content: 'sure, noted' }, { delayMs: 5_000 });
    streams.commitReads(stream);
    await Promise.resolve();
    expect(database.outbox.countFor(stream)).toBe(1);

    await ingress.receiveEvent(recall('m1'));
    expect(await sending).toEqual({ status: 'failed', reason: 'the messages it answers were recalled' });
    expect(database.outbox.countFor(stream)).toBe(0);
    expect(sink.deliveries).toEqual([]);
    const stored = database.messages.history(stream, 10).find((message) => message.direction === 'outbound');
    expect(stored).toMatchObject({ content: 'sure, noted', processedPlainText: '（未送达）sure, noted' });
    expect(stored?.extra).toMatchObject({ undelivered: true, undelivered_reason: 'the messages it answers were recalled', answers: ['m1'] });
    expect(records.some((record) => record['msg'] === 'withdrew queued replies to a recalled message')).toBe(true);
  });

  it('does not send a reply decided after the recall came in while the model was thinking', async () => {
    const { streams, ingress, database, sink } = await harnessWith(tempDir(), ['m1', 'please forget this']);
    streams.holdReads(stream);
    const taken = streams.fetchUnreads(stream); // the chatter read it into its prompt
    await ingress.receiveEvent(recall('m1')); // the model is still thinking
    streams.flushUnreads(stream, taken); // the model answered: NDFC marks what it read
    const outcome = await streams.send(stream, { content: 'sure, noted' });
    streams.commitReads(stream);
    expect(outcome).toEqual({ status: 'cancelled', reason: 'the messages it answers were recalled' });
    expect(database.outbox.countFor(stream)).toBe(0);
    expect(sink.deliveries).toEqual([]);
    expect(database.messages.unread(stream)).toEqual([]);
  });

  it('still sends a reply that also answers a message that was not recalled', async () => {
    const { streams, ingress, sink, clock } = await harnessWith(tempDir(), ['m1', 'please forget this'], ['m2', 'but tell me the time']);
    streams.holdReads(stream);
    streams.flushUnreads(stream, streams.fetchUnreads(stream));
    const sending = streams.send(stream, { content: 'it is noon' }, { delayMs: 5_000 });
    streams.commitReads(stream);
    await ingress.receiveEvent(recall('m1'));
    expect(sink.deliveries).toEqual([]);
    await clock.advance(5_000);
    expect(await sending).toMatchObject({ status: 'sent' });
    expect(sink.deliveries.map((delivery) => delivery.content)).toEqual(['it is noon']);
  });

  it('answers the messages after a reply as a new batch: a later recall of an answered message withdraws nothing new', async () => {
    const { streams, ingress, database, sink, clock } = await harnessWith(tempDir(), ['m1', 'first']);
    streams.flushUnreads(stream, streams.fetchUnreads(stream));
    expect(await streams.send(stream, { content: 'answer one' })).toMatchObject({ status: 'sent' });
    await ingress.receive({ ...privateEnvelope('m2', 'second'), account });
    streams.flushUnreads(stream, streams.fetchUnreads(stream));
    const sending = streams.send(stream, { content: 'answer two' }, { delayMs: 5_000 });
    await ingress.receiveEvent(recall('m1')); // answered already; the queued reply answers m2
    expect(database.outbox.countFor(stream)).toBe(1);
    await clock.advance(5_000);
    expect(await sending).toMatchObject({ status: 'sent' });
    expect(sink.deliveries.map((delivery) => delivery.content)).toEqual(['answer one', 'answer two']);
  });

  it('keeps a message recalled during a step that then failed out of the next run', async () => {
    const { streams, ingress, database } = await harnessWith(tempDir(), ['m1', 'please forget this'], ['m2', 'and this stays']);
    streams.holdReads(stream);
    streams.flushUnreads(stream, streams.fetchUnreads(stream));
    await ingress.receiveEvent(recall('m1'));
    streams.releaseReads(stream); // the model request failed
    expect(streams.fetchUnreads(stream).map((message) => message.messageId)).toEqual(['m2']);
    expect(database.messages.unread(stream).map((message) => message.messageId)).toEqual(['m2']);
  });

  it("marks the bot's own recalled message, so the next prompt knows it is gone", async () => {
    const { streams, ingress, database } = await harnessWith(tempDir(), ['m1', 'hello']);
    streams.flushUnreads(stream, streams.fetchUnreads(stream));
    const sent = await streams.send(stream, { content: 'a slip of the tongue' });
    expect(sent.status).toBe('sent');
    const messageId = sent.status === 'sent' ? sent.message.messageId : '';
    expect(await ingress.receiveEvent(recall(messageId))).toEqual({ status: 'delivered', recalled: true });
    expect(database.messages.get(stream, 'outbound', messageId)?.processedPlainText).toBe('[已撤回] a slip of the tongue');
    const live = streams.getStream(stream)?.history.find((message) => message.messageId === messageId);
    expect(live?.processedPlainText).toBe('[已撤回] a slip of the tongue');
  });
});

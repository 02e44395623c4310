import { describe, expect, it } from 'vitest';
import { withDeliveryFailure } from '../../src/chat/delivery-failure.js';
import { streamIdFor } from '../../src/chat/stream-id.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { createChatHarness, groupEnvelope, privateEnvelope } from '../support/chat.js';
import { useTempDir } from '../support/temp-dir.js';

describe('stream ids', () => {
  it('are stable hashes of platform + group, or platform + user for private chats', () => {
    const group = streamIdFor({ platform: 'qq', chatType: 'group', groupId: '555' });
    expect(group).toMatch(/^[0-9a-f]{64}$/);
    expect(streamIdFor({ platform: 'qq', chatType: 'group', groupId: '555', userId: 'anyone' })).toBe(group);
    const direct = streamIdFor({ platform: 'qq', chatType: 'private', userId: '555' });
    expect(direct).not.toBe(group);
    expect(streamIdFor({ platform: 'other', chatType: 'private', userId: '555' })).not.toBe(direct);
    expect(() => streamIdFor({ platform: 'qq', chatType: 'group' })).toThrow(/needs groupId/);
  });
});

describe('Ingress', () => {
  const tempDir = useTempDir();

  it('stores an inbound message as unread before anyone is told, and delivers it', async () => {
    const { ingress, database, delivered } = createChatHarness(tempDir());
    const outcome = await ingress.receive(privateEnvelope(1, 'hello'), 'test:adapter:console');
    expect(outcome.status).toBe('delivered');
    const streamId = streamIdFor({ platform: 'qq', chatType: 'private', userId: '10001' });
    expect(database.messages.unread(streamId).map((message) => message.content)).toEqual(['hello']);
    expect(delivered.map((message) => message.messageId)).toEqual(['1']);
    expect(database.streams.get(streamId)).toMatchObject({ platform: 'qq', chatType: 'private', userId: '10001', userName: '阿明' });
  });

  it('publishes on_message_received with the message, the envelope and the adapter', async () => {
    const { ingress, bus } = createChatHarness(tempDir());
    const seen: unknown[] = [];
    bus.subscribe('on_message_received', (_name, params) => (seen.push([params.adapter_signature, params.message.content, params.envelope.chat_type]), [EventDecision.PASS, params]));
    await ingress.receive(groupEnvelope('a1', 'hi all'), 'onebot:adapter:napcat');
    expect(seen).toEqual([['onebot:adapter:napcat', 'hi all', 'group']]);
  });

  it('lets a handler above weight 0 STOP a message: stored, not delivered, not unread', async () => {
    const { ingress, database, delivered, bus } = createChatHarness(tempDir());
    bus.subscribe('on_message_received', (_name, params) => [params.message.content.includes('spam') ? EventDecision.STOP : EventDecision.PASS, params], { weight: 10 });
    const outcome = await ingress.receive(privateEnvelope(2, 'buy spam now'));
    expect(outcome.status).toBe('stopped');
    const streamId = streamIdFor({ platform: 'qq', chatType: 'private', userId: '10001' });
    expect(database.messages.get(streamId, 'inbound', '2')).toMatchObject({ content: 'buy spam now' });
    expect(database.messages.unread(streamId)).toEqual([]);
    expect(delivered).toEqual([]);
  });

  it('ignores a repeated message id', async () => {
    const { ingress, database, delivered } = createChatHarness(tempDir());
    await ingress.receive(privateEnvelope(7, 'once'));
    expect(await ingress.receive(privateEnvelope(7, 'once again'))).toMatchObject({ status: 'duplicate', messageId: '7' });
    const streamId = streamIdFor({ platform: 'qq', chatType: 'private', userId: '10001' });
    expect(database.messages.unread(streamId).map((message) => message.content)).toEqual(['once']);
    expect(delivered).toHaveLength(1);
  });

  it('refuses a malformed envelope with a reason naming the field, and stores nothing', async () => {
    const { ingress, database, warnings } = createChatHarness(tempDir());
    const outcome = await ingress.receive({ platform: 'qq', message_id: 1, chat_type: 'group', sender: { id: '1' }, content: 'no group' } as never);
    expect(outcome).toMatchObject({ status: 'invalid', reason: expect.stringContaining('group') });
    expect(database.messages.streamsWithUnread()).toEqual([]);
    expect(warnings()[0]!.msg).toBe('refused an inbound envelope');
  });

  it('brings every stream’s unread messages back after a restart', async () => {
    const directory = tempDir();
    const first = createChatHarness(directory);
    await first.ingress.receive(privateEnvelope(1, 'one'));
    await first.ingress.receive(groupEnvelope(2, 'two'));
    first.database.close();
    const second = createChatHarness(directory);
    const streamIds = second.database.messages.streamsWithUnread();
    expect(streamIds).toHaveLength(2);
    const contents = streamIds.flatMap((streamId) => second.streams.fetchUnreads(streamId).map((message) => message.content)).sort();
    expect(contents).toEqual(['one', 'two']);
  });
});

describe('StreamManager', () => {
  const tempDir = useTempDir();

  it('activates a stream from memory, else rebuilds it from storage; an unknown one is reported, not thrown', async () => {
    const directory = tempDir();
    const first = createChatHarness(directory);
    const { message } = (await first.ingress.receive(groupEnvelope(1, 'hi'))) as { message: { streamId: string } };
    const live = first.streams.activateStream(message.streamId);
    expect(first.streams.activateStream(message.streamId)).toBe(live);
    first.database.close();
    const second = createChatHarness(directory);
    const rebuilt = second.streams.activateStream(message.streamId)!;
    expect(rebuilt).toMatchObject({ chatType: 'group', group: { id: '555', name: '测试群' } });
    expect(rebuilt.unreads.map((entry) => entry.content)).toEqual(['hi']);
    expect(second.streams.activateStream('nope')).toBeUndefined();
    expect(second.warnings().some((record) => record.msg === 'cannot activate an unknown stream')).toBe(true);
  });

  it('flushUnreads moves exactly the given messages to history', async () => {
    const { ingress, streams, database } = createChatHarness(tempDir());
    for (const [id, text] of [[1, 'a'], [2, 'b'], [3, 'c']] as const) await ingress.receive(privateEnvelope(id, text));
    const streamId = streamIdFor({ platform: 'qq', chatType: 'private', userId: '10001' });
    const unreads = streams.fetchUnreads(streamId);
    expect(streams.flushUnreads(streamId, unreads.slice(0, 2))).toBe(2);
    expect(streams.fetchUnreads(streamId).map((message) => message.content)).toEqual(['c']);
    expect(streams.getStream(streamId)!.history.map((message) => message.content)).toEqual(['a', 'b']);
    expect(database.messages.unread(streamId).map((message) => message.content)).toEqual(['c']);
  });

  it('sends through egress: on_message_sent, the adapter, storage and history', async () => {
    const { ingress, streams, sink, database, bus } = createChatHarness(tempDir());
    await ingress.receive(groupEnvelope(1, 'hi'));
    const streamId = streamIdFor({ platform: 'qq', chatType: 'group', groupId: '555' });
    const seen: string[] = [];
    bus.subscribe('on_message_sent', (_name, params) => (seen.push(params.message.content), [EventDecision.PASS, params]));
    const outcome = await streams.send(streamId, { content: '你好呀', replyTo: '1', at: '10001' });
    expect(outcome).toMatchObject({ status: 'sent', message: { messageId: 'sent-1', senderId: 'qq-bot', senderName: '月璃' } });
    expect(sink.deliveries).toEqual([
      { streamId, platform: 'qq', chatType: 'group', groupId: '555', userId: null, content: '你好呀', replyTo: '1', at: '10001', account: null, outboxId: 1 },
    ]);
    expect(seen).toEqual(['你好呀']);
    expect(database.messages.get(streamId, 'outbound', 'sent-1')).toMatchObject({ content: '你好呀', replyTo: '1' });
    expect(streams.getStream(streamId)!.history.at(-1)!.content).toBe('你好呀');
  });

  it('lets an on_message_sent handler cancel the send, and reports a refusing adapter without throwing', async () => {
    const { ingress, streams, sink, bus } = createChatHarness(tempDir());
    await ingress.receive(privateEnvelope(1, 'hi'));
    const streamId = streamIdFor({ platform: 'qq', chatType: 'private', userId: '10001' });
    const dispose = bus.subscribe('on_message_sent', (_name, params) => [EventDecision.SUCCESS, { ...params, continue_send: false }]);
    expect(await streams.send(streamId, { content: 'secret' })).toMatchObject({ status: 'cancelled' });
    dispose();
    sink.failNext = withDeliveryFailure(new Error('retcode 120, muted'), 'refused');
    expect(await streams.send(streamId, { content: 'x' })).toEqual({ status: 'failed', reason: 'the platform refused it: Error: retcode 120, muted' });
    expect(sink.deliveries).toEqual([]);
  });
});

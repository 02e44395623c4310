import { describe, expect, it } from 'vitest';
import { withDeliveryFailure } from '../../src/chat/delivery-failure.js';
import { Ingress } from '../../src/chat/ingress.js';
import { streamIdFor } from '../../src/chat/stream-id.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import type { Message } from '../../src/chat/message.js';
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

describe('Ingress, when a message is over-long (max_inbound_chars)', () => {
  const tempDir = useTempDir();
  const privateStream = streamIdFor({ platform: 'qq', chatType: 'private', userId: '10001' });

  /** The chat harness with an ingress capped at `maxInboundChars`. */
  function cappedHarness(maxInboundChars: number) {
    const harness = createChatHarness(tempDir());
    const delivered: Message[] = [];
    const ingress = new Ingress({
      database: harness.database,
      streams: harness.streams,
      bus: harness.bus,
      clock: harness.clock,
      logger: harness.logger,
      maxInboundChars,
      onDelivered: (message) => delivered.push(message),
    });
    return { ...harness, ingress, delivered };
  }

  it('cuts the text to the cap with a visible mark, in content and processed text, for plugins and storage alike', async () => {
    const { ingress, database, bus, delivered } = cappedHarness(100);
    const seen: string[] = [];
    bus.subscribe('on_message_received', (_name, params) => (seen.push(params.message.content, params.envelope.content), [EventDecision.PASS, params]));
    await ingress.receive(privateEnvelope(1, 'a'.repeat(250)));
    const expected = `${'a'.repeat(100)}…[消息过长，已截断 150 字]`;
    expect(database.messages.get(privateStream, 'inbound', '1')).toMatchObject({ content: expected, processedPlainText: expected });
    expect(seen).toEqual([expected, expected]);
    expect(delivered.map((message) => message.content)).toEqual([expected]);
  });

  it('stores a summary instead of the raw frame of a cut message and logs the cut; a text of exactly the cap stays whole', async () => {
    const { ingress, database, records } = cappedHarness(100);
    const raw = { post_type: 'message', raw_message: 'b'.repeat(300), message: [{ type: 'text', data: { text: 'b'.repeat(300) } }] };
    await ingress.receive({ ...privateEnvelope(2, 'b'.repeat(300)), raw });
    const atCap = { post_type: 'message', raw_message: 'c'.repeat(100) };
    await ingress.receive({ ...privateEnvelope(3, 'c'.repeat(100)), raw: atCap });
    expect(database.messages.get(privateStream, 'inbound', '2')!.raw).toEqual({ truncated: true, content_chars: 300, raw_json_chars: JSON.stringify(raw).length });
    expect(database.messages.get(privateStream, 'inbound', '3')).toMatchObject({ content: 'c'.repeat(100), raw: atCap });
    const cuts = records.filter((record) => record.msg === 'cut an over-long inbound message');
    expect(cuts).toEqual([expect.objectContaining({ level: 'info', message_id: '2', removedChars: 200, rawReplaced: true })]);
  });

  it('caps at 20000 characters when no cap is given', async () => {
    const { ingress, database } = createChatHarness(tempDir());
    await ingress.receive(privateEnvelope(4, 'd'.repeat(20_005)));
    expect(database.messages.get(privateStream, 'inbound', '4')!.content).toBe(`${'d'.repeat(20_000)}…[消息过长，已截断 5 字]`);
  });

  it('never splits a character made of two UTF-16 units at the cut', async () => {
    const { ingress, database } = cappedHarness(100);
    await ingress.receive(privateEnvelope(5, `${'e'.repeat(99)}😀${'e'.repeat(50)}`));
    expect(database.messages.get(privateStream, 'inbound', '5')!.content).toBe(`${'e'.repeat(99)}…[消息过长，已截断 52 字]`);
  });

  it('drops a raw frame far larger than its short text (more than four times the cap)', async () => {
    const { ingress, database } = cappedHarness(100);
    const raw = { message: [{ type: 'unknown_blob', data: { base64: 'f'.repeat(1000) } }] };
    await ingress.receive({ ...privateEnvelope(6, 'short'), raw });
    expect(database.messages.get(privateStream, 'inbound', '6')).toMatchObject({
      content: 'short',
      raw: { truncated: true, content_chars: 5, raw_json_chars: JSON.stringify(raw).length },
    });
  });

  it('keeps the first 100 @-mentions and the first 50 media of a message that lists absurdly many', async () => {
    const { ingress, database } = cappedHarness(100);
    const atUsers = Array.from({ length: 500 }, (_, index) => String(index));
    const media = Array.from({ length: 200 }, (_, index) => ({ kind: 'image' as const, url: `https://example.com/${index}.png` }));
    await ingress.receive({ ...groupEnvelope(7, '[图片]'), at_users: atUsers, media });
    const groupStream = streamIdFor({ platform: 'qq', chatType: 'group', groupId: '555' });
    const extra = database.messages.get(groupStream, 'inbound', '7')!.extra;
    expect(extra['at_users']).toEqual(atUsers.slice(0, 100));
    expect(extra['media']).toEqual(media.slice(0, 50));
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

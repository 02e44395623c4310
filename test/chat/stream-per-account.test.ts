import { describe, expect, it } from 'vitest';
import { streamIdFor } from '../../src/chat/stream-id.js';
import { createChatHarness, groupEnvelope, privateEnvelope } from '../support/chat.js';
import { useTempDir } from '../support/temp-dir.js';

// Issue 17 item 1: a conversation belongs to one account. Its stream id comes from platform,
// account and chat, so two accounts in one group are two conversations, each answered on its
// own account; streams stored before accounts had their own keep answering.

const groupOf = (account: string | null) => streamIdFor({ platform: 'qq', account, chatType: 'group', groupId: '555' });

describe('streams per account', () => {
  const tempDir = useTempDir();

  it('gives two accounts in the same group two conversations, each replying on its own account', async () => {
    const { ingress, streams, database, sink } = createChatHarness(tempDir());
    const first = await ingress.receive({ ...groupEnvelope('a1', 'hello A'), account: '10000' });
    const second = await ingress.receive({ ...groupEnvelope('b1', 'hello B'), account: '10001' });
    expect(first.status === 'delivered' && first.message.streamId).toBe(groupOf('10000'));
    expect(second.status === 'delivered' && second.message.streamId).toBe(groupOf('10001'));
    expect(groupOf('10000')).not.toBe(groupOf('10001'));
    expect(database.messages.unread(groupOf('10000')).map((message) => message.content)).toEqual(['hello A']);
    expect(database.messages.unread(groupOf('10001')).map((message) => message.content)).toEqual(['hello B']);
    expect(database.streams.get(groupOf('10000'))).toMatchObject({ account: '10000', groupId: '555' });
    expect(database.streams.get(groupOf('10001'))).toMatchObject({ account: '10001', groupId: '555' });

    await streams.send(groupOf('10001'), { content: 'reply on B' });
    await streams.send(groupOf('10000'), { content: 'reply on A' });
    expect(sink.deliveries.map((delivery) => [delivery.content, delivery.account, delivery.groupId])).toEqual([
      ['reply on B', '10001', '555'],
      ['reply on A', '10000', '555'],
    ]);
  });

  it('keeps a private chat with the same person apart per account, and the same message id on two accounts is two messages', async () => {
    const { ingress, database } = createChatHarness(tempDir());
    await ingress.receive({ ...privateEnvelope(7, 'to A'), account: '10000' });
    const again = await ingress.receive({ ...privateEnvelope(7, 'to B'), account: '10001' });
    expect(again.status).toBe('delivered');
    const ofA = streamIdFor({ platform: 'qq', account: '10000', chatType: 'private', userId: '10001' });
    const ofB = streamIdFor({ platform: 'qq', account: '10001', chatType: 'private', userId: '10001' });
    expect(database.messages.get(ofA, 'inbound', '7')).toMatchObject({ content: 'to A' });
    expect(database.messages.get(ofB, 'inbound', '7')).toMatchObject({ content: 'to B' });
  });

  it('keeps the account of a stream once stored, whatever a later record says', async () => {
    const { database } = createChatHarness(tempDir());
    const record = { streamId: 's', platform: 'qq', chatType: 'group' as const, groupId: '1', groupName: null, userId: null, userName: null, createdAt: 1, lastActiveAt: 1 };
    database.streams.upsert({ ...record, account: null });
    database.streams.upsert({ ...record, account: '10000' });
    database.streams.upsert({ ...record, account: '10001', lastActiveAt: 2 });
    expect(database.streams.get('s')).toMatchObject({ account: '10000', lastActiveAt: 2 });
    expect(database.streams.claim('s', '10002')).toBe(false);
  });

  it('leaves adapters without accounts (the console) on the account-less ids', async () => {
    const { ingress } = createChatHarness(tempDir());
    const outcome = await ingress.receive(groupEnvelope(1, 'no account'));
    expect(outcome.status === 'delivered' && outcome.message.streamId).toBe(groupOf(null));
  });
});

describe('streams stored before accounts had their own (migration)', () => {
  const tempDir = useTempDir();

  it('gives a stream that names no account to the first account that speaks in it; the next account gets its own', async () => {
    const directory = tempDir();
    const before = createChatHarness(directory);
    // What an older moonglass stored: the account-less id, no account, an unread message.
    await before.ingress.receive(groupEnvelope('old-1', 'from before the upgrade'));
    before.database.close();

    const { ingress, database, streams, sink } = createChatHarness(directory);
    const claimed = await ingress.receive({ ...groupEnvelope('new-1', 'after the upgrade'), account: '10001' });
    expect(claimed.status === 'delivered' && claimed.message.streamId).toBe(groupOf(null));
    expect(database.streams.get(groupOf(null))).toMatchObject({ account: '10001' });
    expect(database.messages.unread(groupOf(null)).map((message) => message.content)).toEqual(['from before the upgrade', 'after the upgrade']);
    await streams.send(groupOf(null), { content: 'still answering' });
    expect(sink.deliveries.at(-1)).toMatchObject({ content: 'still answering', account: '10001' });

    const other = await ingress.receive({ ...groupEnvelope('new-2', 'the second account'), account: '10002' });
    expect(other.status === 'delivered' && other.message.streamId).toBe(groupOf('10002'));
    // The first account stays in the old stream.
    const more = await ingress.receive({ ...groupEnvelope('new-3', 'first account again'), account: '10001' });
    expect(more.status === 'delivered' && more.message.streamId).toBe(groupOf(null));
  });

  it('keeps a stream that names its account (the one its replies went out on) with that account', async () => {
    const { ingress, database } = createChatHarness(tempDir());
    database.streams.upsert({
      streamId: groupOf(null),
      platform: 'qq',
      chatType: 'group',
      groupId: '555',
      groupName: '测试群',
      userId: null,
      userName: null,
      createdAt: 1,
      lastActiveAt: 1,
      account: '10000',
    });
    const newcomer = await ingress.receive({ ...groupEnvelope('n1', 'from 10001'), account: '10001' });
    expect(newcomer.status === 'delivered' && newcomer.message.streamId).toBe(groupOf('10001'));
    const owner = await ingress.receive({ ...groupEnvelope('o1', 'from 10000'), account: '10000' });
    expect(owner.status === 'delivered' && owner.message.streamId).toBe(groupOf(null));
  });

  it('finds a recalled message in the stream of the account the recall came on', async () => {
    const { ingress, database } = createChatHarness(tempDir());
    await ingress.receive({ ...groupEnvelope('same-id', 'seen by A'), account: '10000' });
    await ingress.receive({ ...groupEnvelope('same-id', 'seen by B'), account: '10001' });
    const outcome = await ingress.receiveEvent({
      platform: 'qq',
      self_id: '10001',
      time: 1,
      kind: 'notice',
      notice: { notice_type: 'group_recall', group_id: '555', user_id: '10001', operator_id: '10001', message_id: 'same-id' },
    });
    expect(outcome).toEqual({ status: 'delivered', recalled: true });
    expect(database.messages.get(groupOf('10001'), 'inbound', 'same-id')?.processedPlainText).toBe('[已撤回] seen by B');
    expect(database.messages.get(groupOf('10000'), 'inbound', 'same-id')?.processedPlainText).toBe('seen by A');
  });
});

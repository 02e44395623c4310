import { describe, expect, it } from 'vitest';
import { deliveryFailureOf } from '../../../src/chat/delivery-failure.js';
import type { OutboundDelivery } from '../../../src/chat/outbound-sink.js';
import { startReverse, useAdapterCleanup } from './adapter-fixture.js';

// What a failed OneBot send means for the host's outbox (issue 13, item 1): sent again later
// (`retry`), not sent again because NapCat may have it (`in_doubt`), or dropped (`refused`).

useAdapterCleanup();

const delivery: OutboundDelivery = { streamId: 's', platform: 'qq', chatType: 'private', groupId: null, userId: '20001', content: '你好', replyTo: null, at: null };

async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return deliveryFailureOf(error);
  }
  throw new Error('the delivery did not fail');
}

describe('a failed OneBot delivery', () => {
  it('with nothing connected never left: retry', async () => {
    const { adapter } = await startReverse();
    expect(await failureOf(adapter.deliver(delivery))).toBe('retry');
  });

  it('that NapCat answered with status failed was refused: dropped, not retried', async () => {
    const { adapter, peer, connect } = await startReverse();
    await connect();
    peer.answer('send_private_msg', { kind: 'failed', retcode: 120, message: 'muted' });
    expect(await failureOf(adapter.deliver(delivery))).toBe('refused');
  });

  it('with no answer within action_timeout_ms is in doubt: NapCat may have sent it', async () => {
    const { adapter, peer, connect } = await startReverse({ action_timeout_ms: 50 });
    await connect();
    peer.answer('send_private_msg', { kind: 'silent' });
    expect(await failureOf(adapter.deliver(delivery))).toBe('in_doubt');
  });

  it('whose connection closed after the request went out is in doubt', async () => {
    const { adapter, peer, connect } = await startReverse();
    await connect();
    peer.answer('send_private_msg', { kind: 'silent' });
    peer.onAction(() => peer.drop());
    expect(await failureOf(adapter.deliver(delivery))).toBe('in_doubt');
  });

  it('that cannot be sent at all (an empty message) is refused', async () => {
    const { adapter, connect } = await startReverse();
    await connect();
    expect(await failureOf(adapter.deliver({ ...delivery, content: '' }))).toBe('refused');
  });
});

describe('a OneBot delivery left in doubt', () => {
  it('is found in the chat history when NapCat took it', async () => {
    const { adapter, peer, connect } = await startReverse();
    await connect();
    peer.answer('send_private_msg', { kind: 'take_then_drop' });
    const sinceMs = Date.now();
    expect(await failureOf(adapter.deliver(delivery))).toBe('in_doubt');
    await peer.waitForConnection(2);
    expect(await adapter.confirm!({ delivery, sinceMs, knownMessageIds: [] })).toEqual({ status: 'delivered', messageId: expect.any(String) });
  });

  it('is missing when the request never arrived, and not taken for an older message with the same text', async () => {
    const { adapter, peer, connect } = await startReverse();
    await connect();
    const { messageId: earlier } = await adapter.deliver(delivery); // the same text, already stored by the host
    peer.answer('send_private_msg', { kind: 'drop_unread' });
    const sinceMs = Date.now();
    expect(await failureOf(adapter.deliver(delivery))).toBe('in_doubt');
    await peer.waitForConnection(2);
    expect(await adapter.confirm!({ delivery, sinceMs, knownMessageIds: [earlier] })).toEqual({ status: 'missing' });
  });

  it('cannot be told on an implementation without the history actions', async () => {
    const { adapter, connect } = await startReverse({}, {});
    await connect();
    const bare = await startReverse();
    bare.peer.answer('get_friend_msg_history', { kind: 'failed', retcode: 1404, message: 'API not found' });
    await bare.connect();
    expect(await adapter.confirm!({ delivery, sinceMs: Date.now(), knownMessageIds: [] })).toEqual({ status: 'missing' });
    expect(await bare.adapter.confirm!({ delivery, sinceMs: Date.now(), knownMessageIds: [] })).toMatchObject({ status: 'unknown', reason: expect.stringContaining('1404') });
  });
});

describe('the history lookup in a busy chat', () => {
  it('cannot tell when a full page of newer messages does not reach back to the attempt', async () => {
    const { adapter, peer, connect } = await startReverse();
    await connect();
    const now = Math.floor(Date.now() / 1000);
    const busy = Array.from({ length: 20 }, (_, index) => ({ message_id: 5_000 + index, time: now, sender: { user_id: 30_000 + index }, message: [{ type: 'text', data: { text: '别人的话' } }] }));
    peer.answer('get_friend_msg_history', { kind: 'ok', data: { messages: busy } });
    expect(await adapter.confirm!({ delivery, sinceMs: Date.now() - 300_000, knownMessageIds: [] })).toMatchObject({ status: 'unknown' });
  });
});

import { describe, expect, it } from 'vitest';
import type { OutboundDelivery } from '../../../src/chat/outbound-sink.js';
import { startReverse, useAdapterCleanup } from './adapter-fixture.js';

useAdapterCleanup();

const voice: OutboundDelivery = {
  streamId: 's',
  platform: 'qq',
  chatType: 'private',
  groupId: null,
  userId: '20001',
  content: '',
  replyTo: null,
  at: null,
  media: [{ kind: 'record', file: 'base64://AAAA' }],
};

/** A message of the bot's account in NapCat's history answer, sent now. */
const fromBot = (messageId: number, message: unknown[]) => ({ message_id: messageId, time: Math.floor(Date.now() / 1000), sender: { user_id: 10000 }, message });

describe('a OneBot media delivery left in doubt (issue 17 item 3)', () => {
  it('[issue 17] is found in the history by the kind of its media, though NapCat names the file its own way', async () => {
    const { adapter, peer, connect } = await startReverse();
    await connect();
    peer.answer('get_friend_msg_history', { kind: 'ok', data: { messages: [fromBot(7001, [{ type: 'record', data: { file: 'a1b2.amr', url: 'file:///napcat/a1b2.amr' } }])] } });
    expect(await adapter.confirm!({ delivery: voice, sinceMs: Date.now() - 1_000, knownMessageIds: [] })).toEqual({ status: 'delivered', messageId: '7001' });
  });

  it('[issue 17] is not taken for a picture the account sent meanwhile (no text either, but another kind of media)', async () => {
    const { adapter, peer, connect } = await startReverse();
    await connect();
    peer.answer('get_friend_msg_history', { kind: 'ok', data: { messages: [fromBot(7002, [{ type: 'image', data: { file: 'c3d4.png', url: 'https://multimedia.example/c3d4' } }])] } });
    expect(await adapter.confirm!({ delivery: voice, sinceMs: Date.now() - 1_000, knownMessageIds: [] })).toEqual({ status: 'missing' });
  });
});

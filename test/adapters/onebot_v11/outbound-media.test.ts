import { describe, expect, it } from 'vitest';
import { toOutboundSegments } from '../../../src/adapters/onebot_v11/segments.js';
import type { OutboundDelivery } from '../../../src/chat/outbound-sink.js';
import { startReverse, useAdapterCleanup } from './adapter-fixture.js';

useAdapterCleanup();

const delivery: OutboundDelivery = {
  streamId: 's',
  platform: 'qq',
  chatType: 'group',
  groupId: '30001',
  userId: null,
  content: '',
  replyTo: null,
  at: null,
};

describe('toOutboundSegments with media (issue 17 item 3)', () => {
  it.each([
    ['image', 'https://img.example/cat.png'],
    ['record', 'base64://UklGRg=='],
    ['video', 'file:///srv/bot/data/media/clip.mp4'],
  ] as const)('[issue 17] media of kind %s goes out as a v11 segment of that type with data.file as given (%s)', (kind, file) => {
    expect(toOutboundSegments({ ...delivery, media: [{ kind, file }] })).toEqual([{ type: kind, data: { file } }]);
  });

  it('[issue 17] puts the reply, the at and the text first, then the media in order', () => {
    const segments = toOutboundSegments({
      ...delivery,
      content: '看这个',
      replyTo: '99',
      at: '20001',
      media: [
        { kind: 'image', file: 'https://img.example/1.png' },
        { kind: 'image', file: 'https://img.example/2.png' },
      ],
    });
    expect(segments).toEqual([
      { type: 'reply', data: { id: '99' } },
      { type: 'at', data: { qq: '20001' } },
      { type: 'text', data: { text: ' 看这个' } },
      { type: 'image', data: { file: 'https://img.example/1.png' } },
      { type: 'image', data: { file: 'https://img.example/2.png' } },
    ]);
  });
});

describe('OneBot adapter delivering media (issue 17 item 3)', () => {
  it('[issue 17] a delivery with media and no text is sent: send_group_msg carries the image segment alone', async () => {
    const { adapter, peer, connect } = await startReverse();
    await connect();
    const result = await adapter.deliver({ ...delivery, media: [{ kind: 'image', file: 'https://img.example/cat.png' }] });
    const request = await peer.waitForAction('send_group_msg');
    expect(request.params).toEqual({ group_id: 30001, message: [{ type: 'image', data: { file: 'https://img.example/cat.png' } }] });
    expect(result.messageId).toMatch(/^\d+$/);
  });

  it('[issue 17] a private voice clip after its text goes out through send_private_msg', async () => {
    const { adapter, peer, connect } = await startReverse();
    await connect();
    await adapter.deliver({ ...delivery, chatType: 'private', groupId: null, userId: '20001', content: '听听', media: [{ kind: 'record', file: 'base64://AAAA' }] });
    const request = await peer.waitForAction('send_private_msg');
    expect(request.params).toEqual({
      user_id: 20001,
      message: [
        { type: 'text', data: { text: '听听' } },
        { type: 'record', data: { file: 'base64://AAAA' } },
      ],
    });
  });
});

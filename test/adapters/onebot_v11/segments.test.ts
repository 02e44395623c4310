import { describe, expect, it } from 'vitest';
import { decodeFrame, type MessageEvent } from '../../../src/adapters/onebot_v11/codec.js';
import { buildEnvelope, flattenSegments, toOutboundSegments, toSegments, type SelfRecognition } from '../../../src/adapters/onebot_v11/segments.js';
import type { OutboundDelivery } from '../../../src/chat/outbound-sink.js';
import { InboundEnvelopeSchema } from '../../../src/chat/inbound-envelope.js';

const self: SelfRecognition = { selfIds: new Set(['10000']), isSentByBot: (id) => id === '555' };

function event(fields: Record<string, unknown>): MessageEvent {
  const decoded = decodeFrame(
    JSON.stringify({ time: 1_700_000_000, self_id: 10000, post_type: 'message', message_type: 'private', message_id: 7, user_id: 20001, message: [], ...fields }),
  );
  if (decoded.kind !== 'message') throw new Error(`test frame did not decode: ${JSON.stringify(decoded)}`);
  return decoded.event;
}

describe('flattenSegments', () => {
  it('flattens each segment type to text, with placeholders for media', () => {
    const flat = flattenSegments(
      [
        { type: 'text', data: { text: 'look ' } },
        { type: 'image', data: { file: 'a.jpg' } },
        { type: 'face', data: { id: '14' } },
        { type: 'forward', data: { id: 'fw-1' } },
        { type: 'record', data: {} },
        { type: 'video', data: {} },
        { type: 'dice', data: {} },
      ],
      self,
    );
    expect(flat.content).toBe('look [图片][表情][聊天记录][语音][视频][骰子]');
    expect(flat.messageType).toBe('text');
  });

  it('writes @name (or @qq without a name) and @全体成员, and lists the accounts in at_users', () => {
    const flat = flattenSegments(
      [
        { type: 'at', data: { qq: '20002', name: 'Bob' } },
        { type: 'at', data: { qq: 20003 } },
        { type: 'at', data: { qq: 'all' } },
      ],
      self,
    );
    expect(flat.content).toBe('@Bob@20003@全体成员');
    expect(flat.atUsers).toEqual(['20002', '20003']);
    expect(flat.mentionsBot).toBe(false);
  });

  it('counts an @ of the bot as a mention', () => {
    const flat = flattenSegments([{ type: 'at', data: { qq: '10000' } }, { type: 'text', data: { text: ' hi' } }], self);
    expect(flat).toMatchObject({ content: '@10000 hi', atUsers: ['10000'], mentionsBot: true });
  });

  it('sets reply_to from a reply, without text; a reply to a message the bot sent is a mention', () => {
    const toOther = flattenSegments([{ type: 'reply', data: { id: '444' } }, { type: 'text', data: { text: 'yes' } }], self);
    expect(toOther).toMatchObject({ content: 'yes', replyTo: '444', mentionsBot: false });
    const toBot = flattenSegments([{ type: 'reply', data: { id: 555 } }], self);
    expect(toBot).toMatchObject({ content: '', replyTo: '555', mentionsBot: true });
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'shows a segment of type %s as an unknown segment, not as a property of Object (issue 13, item 9)',
    (type) => {
      const flat = flattenSegments([{ type: 'text', data: { text: 'x' } }, { type, data: {} }], self);
      expect(flat.content).toBe(`x[${type}]`);
    },
  );

  it('shows such a segment type as unknown when it comes from the wire, too', () => {
    const envelope = buildEnvelope(event({ message: [{ type: 'constructor', data: {} }, { type: '__proto__', data: null }] }), 'qq', self);
    expect(envelope.content).toBe('[constructor][__proto__]');
  });

  it('marks a message made only of images as an image message', () => {
    expect(flattenSegments([{ type: 'image', data: {} }, { type: 'image', data: {} }], self).messageType).toBe('image');
    expect(flattenSegments([], self).messageType).toBe('text');
  });
});

describe('toSegments', () => {
  it('parses a CQ-code string and copies an array', () => {
    expect(toSegments('[CQ:at,qq=1] hi')).toEqual([
      { type: 'at', data: { qq: '1' } },
      { type: 'text', data: { text: ' hi' } },
    ]);
    const array = [{ type: 'text', data: { text: 'x' } }];
    expect(toSegments(array)).toEqual(array);
  });
});

describe('buildEnvelope', () => {
  it('builds a private envelope the host accepts, with raw the original event', () => {
    const source = event({ message: [{ type: 'text', data: { text: 'hello' } }], sender: { user_id: 20001, nickname: 'Alice', card: '' } });
    const envelope = buildEnvelope(source, 'qq', self);
    expect(envelope).toEqual({
      platform: 'qq',
      message_id: '7',
      time: 1_700_000_000,
      chat_type: 'private',
      sender: { id: '20001', name: 'Alice', card: null, role: null },
      content: 'hello',
      segments: [{ type: 'text', text: 'hello' }],
      message_type: 'text',
      reply_to: null,
      at_users: [],
      mentions_bot: false,
      raw: source,
    });
    expect(InboundEnvelopeSchema.safeParse(envelope).success).toBe(true);
  });

  it('builds a group envelope with group, card and role, and treats the event self_id as the bot', () => {
    const source = event({
      self_id: 10001,
      message_type: 'group',
      group_id: 30001,
      group_name: 'Moon club',
      message: '[CQ:at,qq=10001] hi',
      sender: { user_id: 20001, nickname: 'Alice', card: 'Al', role: 'owner' },
    });
    const envelope = buildEnvelope(source, 'qq', self);
    expect(envelope).toMatchObject({
      chat_type: 'group',
      group: { id: '30001', name: 'Moon club' },
      sender: { id: '20001', name: 'Alice', card: 'Al', role: 'owner' },
      content: '@10001 hi',
      at_users: ['10001'],
      mentions_bot: true,
    });
    expect(InboundEnvelopeSchema.safeParse(envelope).success).toBe(true);
  });

  it('leaves time out when the event has none worth keeping', () => {
    expect(buildEnvelope(event({ time: 0 }), 'qq', self)).not.toHaveProperty('time');
  });
});

describe('toOutboundSegments', () => {
  const delivery: OutboundDelivery = {
    streamId: 's',
    platform: 'qq',
    chatType: 'group',
    groupId: '30001',
    userId: null,
    content: 'hello',
    replyTo: null,
    at: null,
  };

  it('puts the reply first, then the at, then the text with one space after the at', () => {
    expect(toOutboundSegments({ ...delivery, replyTo: '99', at: '20001' })).toEqual([
      { type: 'reply', data: { id: '99' } },
      { type: 'at', data: { qq: '20001' } },
      { type: 'text', data: { text: ' hello' } },
    ]);
  });

  it('sends plain text alone, and no text segment for empty content', () => {
    expect(toOutboundSegments(delivery)).toEqual([{ type: 'text', data: { text: 'hello' } }]);
    expect(toOutboundSegments({ ...delivery, content: '', at: '1' })).toEqual([{ type: 'at', data: { qq: '1' } }]);
  });
});

describe('media references', () => {
  it('lists images and videos with their URL, content file name and placeholder ordinal; one without a URL keeps its placeholder only', () => {
    const flat = flattenSegments(
      toSegments([
        { type: 'image', data: { file: 'abc.image', url: 'http://img.example/1.png' } },
        { type: 'text', data: { text: ' 看 ' } },
        { type: 'image', data: { file: 'no-url.image' } },
        { type: 'image', data: { file: 'https://img.example/3.png' } },
        { type: 'video', data: { file: '9f8e.mp4', url: 'http://video.example/v.mp4' } },
      ]),
      self,
    );
    expect(flat.content).toBe('[图片] 看 [图片][图片][视频]');
    expect(flat.media).toEqual([
      { kind: 'image', url: 'http://img.example/1.png', file: 'abc.image', index: 0 },
      { kind: 'image', url: 'https://img.example/3.png', index: 2 },
      { kind: 'video', url: 'http://video.example/v.mp4', file: '9f8e.mp4', index: 0 },
    ]);
    const envelope = InboundEnvelopeSchema.parse(
      buildEnvelope(event({ message: [{ type: 'image', data: { url: 'http://img.example/1.png' } }] }), 'qq', self),
    );
    expect(envelope.media).toEqual([{ kind: 'image', url: 'http://img.example/1.png', index: 0 }]);
  });
});

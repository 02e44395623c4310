import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../../src/adapters/onebot_v11/codec.js';

const privateMessage = {
  time: 1_700_000_000,
  self_id: 10000,
  post_type: 'message',
  message_type: 'private',
  sub_type: 'friend',
  message_id: -2147000001,
  user_id: 20001,
  message: [{ type: 'text', data: { text: 'hello' } }],
  raw_message: 'hello',
  font: 14,
  sender: { user_id: 20001, nickname: 'Alice', card: '' },
};

const groupMessage = {
  ...privateMessage,
  message_type: 'group',
  sub_type: 'normal',
  group_id: 30001,
  message: [
    { type: 'at', data: { qq: '10000' } },
    { type: 'text', data: { text: ' hi' } },
  ],
  sender: { user_id: 20001, nickname: 'Alice', card: 'Al', role: 'admin' },
};

function reasonOf(text: string): string {
  const decoded = decodeFrame(text);
  if (decoded.kind !== 'invalid') throw new Error(`expected invalid, got ${decoded.kind}`);
  return decoded.reason;
}

describe('decodeFrame', () => {
  describe('with good frames', () => {
    it('decodes a private message event and keeps unknown keys', () => {
      const decoded = decodeFrame(JSON.stringify({ ...privateMessage, message_format: 'array' }));
      expect(decoded).toEqual({ kind: 'message', event: { ...privateMessage, message_format: 'array' } });
    });

    it('decodes a group message event with its group id and sender role', () => {
      const decoded = decodeFrame(JSON.stringify(groupMessage));
      expect(decoded.kind).toBe('message');
      if (decoded.kind !== 'message') return;
      expect(decoded.event.group_id).toBe(30001);
      expect(decoded.event.sender?.role).toBe('admin');
    });

    it('accepts a message body in CQ-code string form, left as the string', () => {
      const decoded = decodeFrame(JSON.stringify({ ...privateMessage, message: 'hi [CQ:face,id=1]' }));
      expect(decoded).toMatchObject({ kind: 'message', event: { message: 'hi [CQ:face,id=1]' } });
    });

    it('accepts ids sent as strings and segments with null data', () => {
      const decoded = decodeFrame(
        JSON.stringify({ ...privateMessage, message_id: '42', user_id: '20001', message: [{ type: 'shake', data: null }] }),
      );
      expect(decoded).toMatchObject({ kind: 'message', event: { message_id: '42', message: [{ type: 'shake', data: {} }] } });
    });

    it('decodes heartbeat and lifecycle meta events', () => {
      const heartbeat = { time: 1, self_id: 10000, post_type: 'meta_event', meta_event_type: 'heartbeat', status: { online: true }, interval: 30000 };
      const lifecycle = { time: 1, self_id: 10000, post_type: 'meta_event', meta_event_type: 'lifecycle', sub_type: 'connect' };
      expect(decodeFrame(JSON.stringify(heartbeat))).toEqual({ kind: 'meta', event: heartbeat });
      expect(decodeFrame(JSON.stringify(lifecycle))).toEqual({ kind: 'meta', event: lifecycle });
    });

    it('decodes action responses, ok and failed', () => {
      const ok = { status: 'ok', retcode: 0, data: { message_id: 7 }, echo: 'e-1' };
      const failed = { status: 'failed', retcode: 1404, data: null, echo: 'e-2', message: 'API not found', wording: 'no such API' };
      expect(decodeFrame(JSON.stringify(ok))).toEqual({ kind: 'response', response: ok });
      expect(decodeFrame(JSON.stringify(failed))).toEqual({ kind: 'response', response: failed });
    });

    it('ignores notices and requests outside v11 and the bot\'s own message_sent echoes, saying which', () => {
      expect(decodeFrame(JSON.stringify({ post_type: 'notice', notice_type: 'group_card', self_id: 1, time: 1 }))).toEqual({
        kind: 'ignored',
        reason: 'notice event: notice_type "group_card" is not a OneBot v11 notice',
      });
      expect(decodeFrame(JSON.stringify({ post_type: 'request', request_type: 'guild', self_id: 1, time: 1 }))).toEqual({
        kind: 'ignored',
        reason: 'request event: request_type "guild" is not a OneBot v11 request',
      });
      expect(decodeFrame(JSON.stringify({ ...privateMessage, post_type: 'message_sent' }))).toMatchObject({ kind: 'ignored' });
      expect(decodeFrame(JSON.stringify({ post_type: 'something_new' }))).toMatchObject({ kind: 'ignored', reason: expect.stringContaining('something_new') });
    });
  });

  describe('with bad frames', () => {
    it('reports text that is not JSON', () => {
      expect(reasonOf('{"post_type": "message"')).toMatch(/^frame: not JSON/);
    });

    it('reports JSON that is not an object', () => {
      expect(reasonOf('[1,2]')).toBe('frame: must be a JSON object, got an array');
      expect(reasonOf('null')).toBe('frame: must be a JSON object, got null');
      expect(reasonOf('"text"')).toBe('frame: must be a JSON object, got string');
    });

    it('names a missing message_id', () => {
      const { message_id: _dropped, ...withoutId } = privateMessage;
      expect(reasonOf(JSON.stringify(withoutId))).toBe('message_id: is missing');
    });

    it('names a field of the wrong type', () => {
      expect(reasonOf(JSON.stringify({ ...privateMessage, user_id: true }))).toBe('user_id: must be an integer or a non-empty string');
      expect(reasonOf(JSON.stringify({ ...privateMessage, message_type: 'channel' }))).toBe('message_type: must be "private" or "group"');
      expect(reasonOf(JSON.stringify({ ...privateMessage, message: 5 }))).toBe('message: must be an array of segments or a CQ-code string');
    });

    it('names the bad segment inside the message array', () => {
      const frame = { ...privateMessage, message: [{ type: 'text', data: { text: 'a' } }, { data: {} }] };
      expect(reasonOf(JSON.stringify(frame))).toBe('message.1.type: is missing');
    });

    it('requires group_id on a group message', () => {
      const { group_id: _dropped, ...withoutGroup } = groupMessage;
      expect(reasonOf(JSON.stringify(withoutGroup))).toMatch(/^group_id: is missing/);
    });

    it('reports a post_type that is not a string and a frame that is neither event nor response', () => {
      expect(reasonOf(JSON.stringify({ post_type: 3 }))).toBe('post_type: must be a string');
      expect(reasonOf(JSON.stringify({ hello: 'world' }))).toMatch(/^post_type: is missing/);
    });

    it('names a response with a bad status', () => {
      expect(reasonOf(JSON.stringify({ status: 'maybe', retcode: 0, echo: 'x' }))).toBe('status: must be "ok", "async" or "failed"');
    });

    it('never throws, whatever the text', () => {
      const inputs = [
        '',
        ' ',
        '\u0000',
        '{"__proto__": {"polluted": true}, "post_type": "message"}',
        `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
        JSON.stringify({ ...privateMessage, message: [{ type: 'text', data: { __proto__: 1, constructor: 2 } }] }),
        JSON.stringify({ ...privateMessage, sender: 'nobody' }),
        '1e999',
        undefined as unknown as string,
        42 as unknown as string,
      ];
      for (const input of inputs) {
        const decoded = decodeFrame(input);
        expect(['message', 'meta', 'response', 'ignored', 'invalid']).toContain(decoded.kind);
      }
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });
  });
});

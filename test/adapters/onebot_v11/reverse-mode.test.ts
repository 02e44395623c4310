import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import factory, { createOneBotAdapter } from '../../../src/adapters/onebot_v11/adapter.js';
import type { OutboundDelivery } from '../../../src/chat/outbound-sink.js';
import { createPeer, startReverse, useAdapterCleanup } from './adapter-fixture.js';

useAdapterCleanup();

const groupDelivery: OutboundDelivery = {
  streamId: 'qq:group:30001',
  platform: 'qq',
  chatType: 'group',
  groupId: '30001',
  userId: null,
  content: 'hello group',
  replyTo: null,
  at: null,
};

describe('OneBot adapter, reverse mode', () => {
  describe('when NapCat connects', () => {
    it('reports the connection with the X-Self-ID account', async () => {
      const { fake, connect } = await startReverse();
      expect(fake.statuses[0]).toMatchObject({ connected: false, detail: expect.stringContaining('listening on ws://127.0.0.1:') });
      await connect();
      expect(fake.statuses.at(-1)).toMatchObject({ connected: true, selfId: '10000', detail: expect.stringContaining('QQ 10000 connected') });
      await fake.waitForLog((line) => line.level === 'info' && line.msg.includes('lifecycle: connect'), 'lifecycle at info');
    });

    it('hands a private message to ctx.receive as an envelope', async () => {
      const { fake, peer, connect } = await startReverse();
      await connect();
      const frame = peer.pushPrivateMessage({ message: 'hello moon', userId: 20001, nickname: 'Alice', messageId: 501, time: 1_700_000_000 });
      await fake.waitForReceived(1);
      expect(fake.received[0]).toEqual({
        platform: 'qq',
        account: '10000',
        message_id: '501',
        time: 1_700_000_000,
        chat_type: 'private',
        sender: { id: '20001', name: 'Alice', card: null, role: null },
        content: 'hello moon',
        segments: [{ type: 'text', text: 'hello moon' }],
        message_type: 'text',
        reply_to: null,
        at_users: [],
        mentions_bot: false,
        raw: frame,
      });
    });

    it('counts a group @ of the bot as a mention', async () => {
      const { fake, peer, connect } = await startReverse();
      await connect();
      peer.pushGroupMessage({
        groupId: 30001,
        card: 'Al',
        role: 'admin',
        message: [
          { type: 'at', data: { qq: '10000' } },
          { type: 'text', data: { text: ' are you there?' } },
        ],
      });
      await fake.waitForReceived(1);
      expect(fake.received[0]).toMatchObject({
        chat_type: 'group',
        group: { id: '30001', name: '' },
        sender: { card: 'Al', role: 'admin' },
        content: '@10000 are you there?',
        at_users: ['10000'],
        mentions_bot: true,
      });
    });

    it('reads a message sent in CQ-code string form', async () => {
      const { fake, peer, connect } = await startReverse();
      await connect();
      peer.pushGroupMessage({ format: 'string', message: [{ type: 'text', data: { text: 'a [b] & c' } }, { type: 'face', data: { id: 1 } }] });
      await fake.waitForReceived(1);
      expect(fake.received[0]?.content).toBe('a [b] & c[表情]');
    });

    it('keeps messages in arrival order', async () => {
      const { fake, peer, connect } = await startReverse();
      await connect();
      for (const text of ['one', 'two', 'three']) peer.pushPrivateMessage({ message: text });
      await fake.waitForReceived(3);
      expect(fake.received.map((envelope) => envelope.content)).toEqual(['one', 'two', 'three']);
    });
  });

  describe('deliver', () => {
    it('sends send_group_msg with reply, at and text segments and resolves the message id', async () => {
      const { adapter, peer, connect } = await startReverse();
      await connect();
      const result = await adapter.deliver({ ...groupDelivery, replyTo: '777', at: '20001' });
      const request = await peer.waitForAction('send_group_msg');
      expect(request.params).toEqual({
        group_id: 30001,
        message: [
          { type: 'reply', data: { id: '777' } },
          { type: 'at', data: { qq: '20001' } },
          { type: 'text', data: { text: ' hello group' } },
        ],
      });
      expect(result).toEqual({ messageId: '1001' });
    });

    it('sends send_private_msg to the user', async () => {
      const { adapter, peer, connect } = await startReverse();
      await connect();
      const result = await adapter.deliver({ ...groupDelivery, chatType: 'private', groupId: null, userId: '20001', content: 'hi' });
      const request = await peer.waitForAction('send_private_msg');
      expect(request.params).toEqual({ user_id: 20001, message: [{ type: 'text', data: { text: 'hi' } }] });
      expect(result.messageId).toMatch(/^\d+$/);
    });

    it('treats a reply to a message the bot sent as a mention', async () => {
      const { adapter, fake, peer, connect } = await startReverse();
      await connect();
      const { messageId } = await adapter.deliver(groupDelivery);
      peer.pushGroupMessage({ message: [{ type: 'reply', data: { id: messageId } }, { type: 'text', data: { text: 'why?' } }] });
      peer.pushGroupMessage({ message: [{ type: 'reply', data: { id: '1' } }, { type: 'text', data: { text: 'other' } }] });
      await fake.waitForReceived(2);
      expect(fake.received.map((envelope) => [envelope.reply_to, envelope.mentions_bot])).toEqual([
        [messageId, true],
        ['1', false],
      ]);
    });

    it('rejects with "no OneBot connection" while nothing is connected', async () => {
      const { adapter } = await startReverse();
      await expect(adapter.deliver(groupDelivery)).rejects.toThrow(/send_group_msg.*no OneBot connection.*listening on/);
    });

    it('rejects a group delivery without groupId', async () => {
      const { adapter, connect } = await startReverse();
      await connect();
      await expect(adapter.deliver({ ...groupDelivery, groupId: null })).rejects.toThrow('cannot deliver a group message without groupId');
    });

    it('rejects an empty delivery without sending anything', async () => {
      const { adapter, peer, connect } = await startReverse();
      await connect();
      await expect(adapter.deliver({ ...groupDelivery, content: '' })).rejects.toThrow('cannot deliver an empty message');
      expect(peer.actions).toEqual([]);
    });

    it('rejects with the retcode and wording when the send fails', async () => {
      const { adapter, peer, connect } = await startReverse();
      peer.answer('send_group_msg', { kind: 'failed', retcode: 1200, message: 'send failed', wording: 'bot is muted in this group' });
      await connect();
      await expect(adapter.deliver(groupDelivery)).rejects.toThrow('OneBot action "send_group_msg" failed: retcode 1200, bot is muted in this group');
    });

    it('rejects when the answer carries no message_id', async () => {
      const { adapter, peer, connect } = await startReverse();
      peer.answer('send_group_msg', { kind: 'ok', data: null });
      await connect();
      await expect(adapter.deliver(groupDelivery)).rejects.toThrow(/send_group_msg.*message_id/);
    });
  });

  describe('actions', () => {
    it('passes get_forward_msg through call() and resolves its data', async () => {
      const { adapter, peer, connect } = await startReverse();
      const data = { messages: [{ sender: { user_id: 1, nickname: 'A' }, message: [{ type: 'text', data: { text: 'inner' } }] }] };
      peer.answer('get_forward_msg', { kind: 'ok', data });
      await connect();
      await expect(adapter.call('get_forward_msg', { id: 'fw-1' })).resolves.toEqual(data);
      expect((await peer.waitForAction('get_forward_msg')).params).toEqual({ id: 'fw-1' });
    });

    it('passes get_msg through call()', async () => {
      const { adapter, connect } = await startReverse();
      await connect();
      await expect(adapter.call('get_msg', { message_id: 42 })).resolves.toMatchObject({ message_id: 42 });
    });

    it('uses a distinct echo for each call', async () => {
      const { adapter, peer, connect } = await startReverse();
      await connect();
      await Promise.all([adapter.call('get_msg', { message_id: 1 }), adapter.call('get_msg', { message_id: 2 })]);
      const echoes = peer.actions.map((request) => request.echo);
      expect(new Set(echoes).size).toBe(2);
    });

    it('times out an unanswered action with an error naming it', async () => {
      const { adapter, peer, connect } = await startReverse({ action_timeout_ms: 100 });
      peer.answer('get_msg', { kind: 'silent' });
      await connect();
      await expect(adapter.call('get_msg', { message_id: 1 })).rejects.toThrow('OneBot action "get_msg" got no answer within 100 ms');
    });

    it('rejects pending actions at once when the socket closes', async () => {
      const { adapter, peer, connect } = await startReverse({ action_timeout_ms: 10_000 });
      peer.answer('get_forward_msg', { kind: 'silent' });
      await connect();
      const pending = adapter.call('get_forward_msg', { id: 'x' });
      await peer.waitForAction('get_forward_msg');
      const started = Date.now();
      peer.drop();
      await expect(pending).rejects.toThrow('OneBot action "get_forward_msg" aborted: connection closed');
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });

  describe('handshake', () => {
    it('refuses a wrong token with 401 and receives nothing', async () => {
      const { fake, peer, url } = await startReverse({ access_token: 'right' });
      peer.connectReverse({ url, token: 'wrong' });
      const refusal = await peer.waitForRefusal();
      expect(refusal.status).toBe(401);
      expect(refusal.body).toContain('access token does not match');
      await peer.close();
      expect(fake.received).toEqual([]);
      expect(peer.connectionCount).toBe(0);
      expect(fake.statuses.every((status) => !status.connected)).toBe(true);
      expect(fake.logs.some((line) => line.level === 'warn' && line.msg.startsWith('refused a OneBot connection'))).toBe(true);
    });

    it('refuses a missing token with 401 and accepts the right one', async () => {
      const { fake, peer, url, connect } = await startReverse({ access_token: 'right' });
      peer.connectReverse({ url });
      expect((await peer.waitForRefusal()).status).toBe(401);
      await peer.close();
      await connect({ token: 'right' });
      peer.pushPrivateMessage({ message: 'authorised' });
      await fake.waitForReceived(1);
      expect(fake.received[0]?.content).toBe('authorised');
    });

    it('refuses a connection without X-Self-ID with 400', async () => {
      const { peer, url } = await startReverse();
      peer.connectReverse({ url, selfId: null });
      const refusal = await peer.waitForRefusal();
      expect(refusal).toMatchObject({ status: 400, body: expect.stringContaining('X-Self-ID') });
    });

    it('refuses an API-role connection with 400, asking for Universal', async () => {
      const { peer, url } = await startReverse();
      peer.connectReverse({ url, role: 'API' });
      expect(await peer.waitForRefusal()).toMatchObject({ status: 400, body: expect.stringContaining('Universal') });
    });

    it('refuses another path with 404', async () => {
      const { peer, url } = await startReverse();
      peer.connectReverse({ url: url.replace('/onebot/v11/ws', '/other') });
      expect((await peer.waitForRefusal()).status).toBe(404);
    });

    it('accepts the configured path "/"', async () => {
      const { fake, peer, adapter } = await startReverse({ reverse: { path: '/' } });
      peer.connectReverse({ url: `ws://127.0.0.1:${adapter.listeningPort}` });
      await peer.waitForConnection();
      peer.pushPrivateMessage({ message: 'root' });
      await fake.waitForReceived(1);
    });
  });

  describe('frames it cannot use', () => {
    it('logs a malformed frame with its reason and still handles the next good frame', async () => {
      const { fake, peer, connect } = await startReverse();
      await connect();
      peer.pushRaw('{"post_type": "message", oops');
      peer.pushEvent({ time: 1, self_id: 10000, post_type: 'message', message_type: 'private', user_id: 1, message: [] });
      peer.pushPrivateMessage({ message: 'still here' });
      await fake.waitForReceived(1);
      expect(fake.received.map((envelope) => envelope.content)).toEqual(['still here']);
      const warnings = fake.logs.filter((line) => line.level === 'warn' && line.msg.startsWith('OneBot frame skipped'));
      expect(warnings.map((line) => line.msg)).toEqual([expect.stringContaining('frame: not JSON'), 'OneBot frame skipped: message_id: is missing']);
    });

    it('ignores message_sent echoes, notices and heartbeats (heartbeat logged at debug)', async () => {
      const { fake, peer, connect } = await startReverse();
      await connect();
      peer.pushMeta('heartbeat');
      peer.pushEvent({ time: 1, self_id: 10000, post_type: 'message_sent', message_type: 'group', message_id: 5, user_id: 10000, group_id: 30001, message: [] });
      peer.pushEvent({ time: 1, self_id: 10000, post_type: 'notice', notice_type: 'group_recall', group_id: 30001 });
      peer.pushPrivateMessage({ message: 'real' });
      await fake.waitForReceived(1);
      expect(fake.received.map((envelope) => envelope.content)).toEqual(['real']);
      expect(fake.logs.some((line) => line.level === 'debug' && line.msg === 'OneBot heartbeat')).toBe(true);
      expect(fake.logs.some((line) => line.level === 'debug' && line.msg.includes('message_sent'))).toBe(true);
    });

    it('logs a refused envelope and goes on', async () => {
      const { fake, peer, connect } = await startReverse({}, { ack: { stored: false, status: 'invalid', reason: 'content: too long' } });
      await connect();
      peer.pushPrivateMessage({ message: 'x' });
      await fake.waitForLog((line) => line.level === 'warn' && line.msg.includes('content: too long'), 'host refusal warning');
    });
  });

  describe('groups allow and deny', () => {
    it('drops messages from a denied group, even when it is also allowed', async () => {
      const { fake, peer, connect } = await startReverse({ groups: { allow: ['30001', '30002'], deny: ['30002'] } });
      await connect();
      peer.pushGroupMessage({ groupId: 30002, message: 'denied' });
      peer.pushGroupMessage({ groupId: 30003, message: 'not allowed' });
      peer.pushGroupMessage({ groupId: 30001, message: 'allowed' });
      peer.pushPrivateMessage({ message: 'private is not filtered' });
      await fake.waitForReceived(2);
      expect(fake.received.map((envelope) => envelope.content)).toEqual(['allowed', 'private is not filtered']);
      expect(fake.logs.filter((line) => line.level === 'debug' && line.msg.includes('[groups]'))).toHaveLength(2);
    });

    it('lets every group through when allow is empty, except denied ones', async () => {
      const { fake, peer, connect } = await startReverse({ groups: { deny: [30002] } });
      await connect();
      peer.pushGroupMessage({ groupId: 30002, message: 'denied' });
      peer.pushGroupMessage({ groupId: 39999, message: 'any group' });
      await fake.waitForReceived(1);
      peer.pushPrivateMessage({ message: 'marker' });
      await fake.waitForReceived(2);
      expect(fake.received.map((envelope) => envelope.content)).toEqual(['any group', 'marker']);
    });
  });

  describe('connection changes', () => {
    it('reports the drop, and messages flow again once the peer reconnects', async () => {
      const { fake, peer, connect } = await startReverse();
      await connect({ reconnectIntervalMs: 50 });
      peer.pushPrivateMessage({ message: 'before' });
      await fake.waitForReceived(1);
      peer.drop();
      await fake.waitForStatus((status) => !status.connected && status.selfId === '10000', 'disconnected');
      await peer.waitForConnection(2);
      expect(fake.statuses.at(-1)).toMatchObject({ connected: true, selfId: '10000' });
      peer.pushPrivateMessage({ message: 'after' });
      await fake.waitForReceived(2);
      expect(fake.received.map((envelope) => envelope.content)).toEqual(['before', 'after']);
    });

    it('replaces an older connection for the same account with a newer one', async () => {
      const { adapter, fake, url, peer: first, connect } = await startReverse();
      await connect();
      const second = createPeer();
      second.connectReverse({ url });
      await second.waitForConnection();
      await first.waitForDisconnect();
      await first.close();
      await adapter.deliver(groupDelivery);
      expect(second.actions.map((request) => request.action)).toEqual(['send_group_msg']);
      expect(first.actions).toEqual([]);
      expect(fake.statuses.at(-1)).toMatchObject({ connected: true, selfId: '10000' });
    });

    it('sends actions to the bot.toml account when several accounts are connected', async () => {
      const { adapter, url, peer: first, connect } = await startReverse({}, { accounts: { qq: '10000' } });
      await connect();
      const other = createPeer({ selfId: '10002' });
      other.connectReverse({ url });
      await other.waitForConnection();
      await adapter.deliver(groupDelivery);
      expect(first.actions.map((request) => request.action)).toEqual(['send_group_msg']);
      expect(other.actions).toEqual([]);
    });

    it('stop() closes the connection and the server', async () => {
      const { adapter, fake, peer, url, connect } = await startReverse();
      await connect();
      await adapter.stop();
      await peer.waitForDisconnect();
      expect(fake.statuses.at(-1)).toMatchObject({ connected: false, detail: 'stopped' });
      const probe = new WebSocket(url);
      const [error] = (await once(probe, 'error')) as [NodeJS.ErrnoException];
      expect(error.code).toBe('ECONNREFUSED');
    });

    it('fails to start when the port is taken', async () => {
      const { adapter } = await startReverse();
      await expect(startReverse({ reverse: { port: adapter.listeningPort } })).rejects.toThrow(/EADDRINUSE/);
    });

    it('is the module\'s default export', () => {
      expect(factory).toBe(createOneBotAdapter);
    });

    it('stops when the host aborts the signal', async () => {
      const { fake, peer, connect } = await startReverse();
      await connect();
      fake.abort();
      await peer.waitForDisconnect();
      await fake.waitForStatus((status) => status.detail === 'stopped', 'stopped');
    });
  });
});

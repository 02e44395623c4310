import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPeer, privateDelivery, startForward, useAdapterCleanup } from './adapter-fixture.js';

useAdapterCleanup();


/** A port that was free a moment ago (bound to 0, read back, released). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

describe('OneBot adapter, forward mode', () => {
  it('connects with the Bearer token and learns the account from the lifecycle event', async () => {
    const peer = createPeer();
    const { url } = await peer.listenForward({ token: 'tok' });
    const { fake, adapter } = await startForward(url, { access_token: 'tok' });
    await peer.waitForConnection();
    expect(peer.handshakes[0]?.authorization).toBe('Bearer tok');
    await fake.waitForStatus((status) => status.connected && status.selfId === '10000', 'connected as 10000');
    expect(adapter.listeningPort).toBeUndefined();
  });

  it('receives a message and delivers a reply', async () => {
    const peer = createPeer();
    const { url } = await peer.listenForward();
    const { fake, adapter } = await startForward(url);
    await peer.waitForConnection();
    peer.pushPrivateMessage({ message: 'hello', userId: 20001, messageId: 88 });
    await fake.waitForReceived(1);
    expect(fake.received[0]).toMatchObject({ message_id: '88', chat_type: 'private', content: 'hello', sender: { id: '20001' } });
    const result = await adapter.deliver(privateDelivery);
    const request = await peer.waitForAction('send_private_msg');
    expect(request.params).toEqual({ user_id: 20001, message: [{ type: 'text', data: { text: 'hi back' } }] });
    expect(result.messageId).toMatch(/^\d+$/);
  });

  it('reconnects after the peer drops the connection, logging the drop once', async () => {
    const peer = createPeer();
    const { url } = await peer.listenForward();
    const { fake } = await startForward(url, { forward: { reconnect_interval_ms: 50 } });
    await peer.waitForConnection();
    peer.drop();
    await fake.waitForStatus((status) => !status.connected, 'disconnected');
    await peer.waitForConnection(2);
    await fake.waitForLog((line) => line.msg === `reconnected to ${url}`, 'reconnected');
    peer.pushPrivateMessage({ message: 'after reconnect' });
    await fake.waitForReceived(1);
    expect(fake.received[0]?.content).toBe('after reconnect');
    expect(fake.logs.filter((line) => line.level === 'warn' && line.msg.includes('lost'))).toHaveLength(1);
  });

  it('keeps retrying a server that is not up yet, warning once and then only at debug', async () => {
    const port = await freePort();
    const url = `ws://127.0.0.1:${port}`;
    const { fake, adapter } = await startForward(url, { forward: { reconnect_interval_ms: 20 } });
    await expect(adapter.deliver(privateDelivery)).rejects.toThrow(/no OneBot connection.*connecting to/);
    await fake.waitForLog((line) => line.level === 'debug' && line.attempt === 3, 'third failed attempt');
    const peer = createPeer();
    await peer.listenForward({ port });
    await peer.waitForConnection();
    await fake.waitForStatus((status) => status.connected, 'connected');
    const warnings = fake.logs.filter((line) => line.level === 'warn');
    expect(warnings.map((line) => line.msg)).toEqual([`cannot connect to OneBot at ${url}; retrying every 20 ms`]);
  });

  it('is refused with a wrong token and keeps retrying without warning again', async () => {
    const peer = createPeer();
    const { url } = await peer.listenForward({ token: 'right' });
    const { fake } = await startForward(url, { access_token: 'wrong', forward: { reconnect_interval_ms: 20 } });
    await peer.waitForRefusal(3);
    expect(peer.connectionCount).toBe(0);
    expect(fake.statuses.every((status) => !status.connected)).toBe(true);
    const warnings = fake.logs.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.['reason']).toContain('401');
  });

  it('stop() closes the socket and stops reconnecting', async () => {
    const peer = createPeer({ waitTimeoutMs: 300 });
    const { url } = await peer.listenForward();
    const { adapter, fake } = await startForward(url, { forward: { reconnect_interval_ms: 20 } });
    await peer.waitForConnection();
    await adapter.stop();
    await peer.waitForDisconnect();
    expect(fake.statuses.at(-1)).toMatchObject({ connected: false, detail: 'stopped' });
    // A reconnect would come within one 20 ms interval; none comes in fifteen.
    await expect(peer.waitForConnection(2)).rejects.toThrow();
  });
});

describe('OneBot adapter, forward mode, a token in the URL', () => {
  it('[issue 13.8] never shows the ?access_token= of the URL in a log line or the status', async () => {
    const { fake } = await startForward('ws://127.0.0.1:9/?access_token=hunter2-token');
    await new Promise((resolve) => setTimeout(resolve, 150)); // a few refused connection attempts
    const shown = JSON.stringify([fake.statuses, fake.logs]);
    expect(shown).toContain('access_token=%28secret%29');
    expect(shown).not.toContain('hunter2-token');
  });
});

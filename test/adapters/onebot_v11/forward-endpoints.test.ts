import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { configHeader, configSchema } from '../../../src/adapters/onebot_v11/config.js';
import { loadConfigFile } from '../../../src/kernel/config/load-config-file.js';
import { ConfigFileError } from '../../../src/kernel/errors/config-file-error.js';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { freePort } from '../../support/free-port.js';
import type { OneBotPeer } from '../../support/onebot-peer.js';
import { useTempDir } from '../../support/temp-dir.js';
import { createPeer, privateDelivery, startForward, useAdapterCleanup } from './adapter-fixture.js';

useAdapterCleanup();

// Issue 17 item 1 (forward part): [[forward.endpoints]] lists several QQ clients' forward
// WebSocket servers; each connection is one account, reconnecting on its own.

/** `[forward] url` when endpoints are listed: nothing listens there, and nothing may try it. */
const UNUSED_URL = 'ws://127.0.0.1:9';

function sends(peer: OneBotPeer): string[] {
  return peer.actions.map((request) => request.action);
}

/** Two QQ clients listening (accounts 10001 and 10002) and the adapter connected to both. */
async function twoClients() {
  const first = createPeer({ selfId: '10001' });
  const second = createPeer({ selfId: '10002' });
  const a = await first.listenForward();
  const b = await second.listenForward();
  const started = await startForward(UNUSED_URL, { forward: { endpoints: [{ url: a.url }, { url: b.url }] } });
  await first.waitForConnection();
  await second.waitForConnection();
  await started.fake.waitForStatus(
    (status) => status.accounts?.filter((account) => account.connected).length === 2,
    'both accounts connected',
  );
  return { ...started, first, second, a, b };
}

describe('OneBot adapter, forward mode with several endpoints', () => {
  it('connects to every endpoint (never to [forward] url) and names all of them in the start line', async () => {
    const { fake, a, b } = await twoClients();
    expect(fake.logs.map((line) => line.msg)).toContain(`OneBot forward mode: connecting to ${a.url}, ${b.url}`);
    expect(JSON.stringify(fake.logs)).not.toContain(UNUSED_URL);
    expect(fake.statuses.at(-1)?.accounts).toEqual([
      { selfId: '10001', connected: true, detail: `connected to ${a.url}` },
      { selfId: '10002', connected: true, detail: `connected to ${b.url}` },
    ]);
  });

  it('a message on each connection arrives with that connection’s account', async () => {
    const { fake, first, second } = await twoClients();
    first.pushPrivateMessage({ message: 'to 10001', userId: 42 });
    await fake.waitForReceived(1);
    second.pushPrivateMessage({ message: 'to 10002', userId: 43 });
    await fake.waitForReceived(2);
    expect(fake.received.map((envelope) => [envelope.content, envelope.account])).toEqual([
      ['to 10001', '10001'],
      ['to 10002', '10002'],
    ]);
  });

  it('a delivery for an account goes out on that endpoint’s connection only', async () => {
    const { adapter, first, second } = await twoClients();
    await adapter.deliver({ ...privateDelivery, account: '10002', content: 'via 10002' });
    expect(sends(first)).toEqual([]);
    expect(sends(second)).toEqual(['send_private_msg']);
    await adapter.deliver({ ...privateDelivery, account: '10001', content: 'via 10001' });
    expect(sends(first)).toEqual(['send_private_msg']);
    expect(sends(second)).toEqual(['send_private_msg']);
  });

  it('one QQ client going away leaves the other answering, and its endpoint reconnects on its own once it is back', async () => {
    const { fake, adapter, first, second, b } = await twoClients();
    await second.close();
    await fake.waitForLog((line) => line.level === 'warn' && line.msg === `OneBot connection to ${b.url} lost; reconnecting every 50 ms`, 'the drop of b');
    await fake.waitForLog((line) => line.msg === 'OneBot connection attempt failed again' && line['url'] === b.url, 'b retried');
    expect(fake.statuses.at(-1)?.accounts).toEqual([
      { selfId: '10001', connected: true, detail: expect.any(String) },
      { selfId: '10002', connected: false, detail: expect.stringMatching(/^connection closed/) },
    ]);

    first.pushPrivateMessage({ message: 'still here', userId: 42 });
    await fake.waitForReceived(1);
    expect(fake.received[0]).toMatchObject({ content: 'still here', account: '10001' });
    await adapter.deliver({ ...privateDelivery, account: '10001' });
    expect(sends(first)).toEqual(['send_private_msg']);
    await expect(adapter.deliver({ ...privateDelivery, account: '10002' })).rejects.toMatchObject({ failure: 'no_connection', account: '10002' });

    const statusesBefore = fake.statuses.length;
    const back = createPeer({ selfId: '10002' });
    await back.listenForward({ port: b.port });
    await back.waitForConnection();
    await fake.waitForStatus(
      (status) => fake.statuses.indexOf(status) >= statusesBefore && status.accounts?.every((account) => account.connected) === true,
      'both connected again',
    );
    await adapter.deliver({ ...privateDelivery, account: '10002' });
    expect(sends(back)).toEqual(['send_private_msg']);
    expect(first.connectionCount).toBe(1);
    expect(first.disconnectCount).toBe(0);
  });

  it('sends each endpoint its own access_token, else the top-level one ("" sends none)', async () => {
    const shared = createPeer({ selfId: '10001' });
    const own = createPeer({ selfId: '10002' });
    const open = createPeer({ selfId: '10003' });
    const a = await shared.listenForward({ token: 'shared-token' });
    const b = await own.listenForward({ token: 'token-of-b' });
    const c = await open.listenForward();
    const { fake } = await startForward(UNUSED_URL, {
      access_token: 'shared-token',
      forward: { endpoints: [{ url: a.url }, { url: b.url, access_token: 'token-of-b' }, { url: c.url, access_token: '' }] },
    });
    await Promise.all([shared.waitForConnection(), own.waitForConnection(), open.waitForConnection()]);
    expect(shared.handshakes[0]?.authorization).toBe('Bearer shared-token');
    expect(own.handshakes[0]?.authorization).toBe('Bearer token-of-b');
    expect(open.handshakes[0]?.authorization).toBeUndefined();
    expect(JSON.stringify([fake.logs, fake.statuses])).not.toMatch(/shared-token|token-of-b/);
  });

  it('while nothing is connected, the status and a refused send name every endpoint still unconnected (tokens hidden)', async () => {
    const a = `ws://127.0.0.1:${await freePort()}`;
    const b = `ws://127.0.0.1:${await freePort()}/?access_token=hunter2-token`;
    const shownB = b.replace('hunter2-token', '%28secret%29');
    const { fake, adapter } = await startForward(UNUSED_URL, { forward: { endpoints: [{ url: a }, { url: b }] } });
    const waiting = `connecting to ${a}, ${shownB} (retrying every 50 ms; 0 of 2 endpoints connected)`;
    expect(fake.statuses.at(-1)).toMatchObject({ connected: false, detail: waiting });
    await expect(adapter.deliver(privateDelivery)).rejects.toThrow(waiting);
    expect(fake.logs.map((line) => line.msg)).toContain(`OneBot forward mode: connecting to ${a}, ${shownB}`);
    await fake.waitForLog((line) => line.msg === `cannot connect to OneBot at ${shownB}; retrying every 50 ms`, 'b refused');
    expect(JSON.stringify([fake.logs, fake.statuses])).not.toContain('hunter2-token');
  });
});

describe('onebot_v11.toml [[forward.endpoints]]', () => {
  const tempDir = useTempDir();

  function load(text: string) {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'onebot_v11.toml'), text);
    return loadConfigFile({ configDir, fileName: 'onebot_v11.toml', schema: configSchema, header: configHeader, logger: createMemoryLogger().logger });
  }

  function issuesOf(text: string): readonly { path: string; reason: string }[] {
    try {
      load(text);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigFileError);
      expect(inspect(error, { depth: 10 })).not.toContain('tok-of-second');
      return (error as ConfigFileError).issues;
    }
    throw new Error('expected the file to be refused');
  }

  it('reads the endpoints with their optional tokens', () => {
    const config = load(
      'mode = "forward"\naccess_token = "shared"\n[[forward.endpoints]]\nurl = "ws://127.0.0.1:3001"\n' +
        '[[forward.endpoints]]\nurl = "wss://qq2.example:3002/ws"\naccess_token = "tok-of-second"\n',
    );
    expect(config.forward.endpoints).toEqual([{ url: 'ws://127.0.0.1:3001' }, { url: 'wss://qq2.example:3002/ws', access_token: 'tok-of-second' }]);
  });

  it('refuses the same server listed twice, naming the later entry and the earlier one', () => {
    const issues = issuesOf(
      '[[forward.endpoints]]\nurl = "ws://127.0.0.1:3001"\n[[forward.endpoints]]\nurl = "ws://127.0.0.1:3001/"\naccess_token = "tok-of-second"\n',
    );
    expect(issues).toEqual([
      {
        path: 'forward.endpoints.1.url',
        reason: 'the same server as forward.endpoints.0.url; list each QQ client once (each endpoint is one connection, one account)',
      },
    ]);
  });

  it('refuses an endpoint url that is not ws:// or wss://, naming its entry', () => {
    const issues = issuesOf('[[forward.endpoints]]\nurl = "ws://127.0.0.1:3001"\n[[forward.endpoints]]\nurl = "http://127.0.0.1:3002"\naccess_token = "tok-of-second"\n');
    expect(issues).toEqual([{ path: 'forward.endpoints.1.url', reason: 'must be a ws:// or wss:// URL' }]);
  });

  it('refuses a misspelt key in an entry rather than sending the shared token', () => {
    const issues = issuesOf('[[forward.endpoints]]\nurl = "ws://127.0.0.1:3001"\ntoken = "tok-of-second"\n');
    expect(issues).toEqual([{ path: 'forward.endpoints.0', reason: 'Unrecognized key: "token"' }]);
  });

  it('the generated default file explains [[forward.endpoints]] and still loads as the one url', () => {
    const configDir = tempDir();
    const options = { configDir, fileName: 'onebot_v11.toml', schema: configSchema, header: configHeader, logger: createMemoryLogger().logger };
    const first = loadConfigFile(options);
    const text = readFileSync(join(configDir, 'onebot_v11.toml'), 'utf8');
    expect(text).toContain('#   [[forward.endpoints]]\n#   url = "ws://127.0.0.1:3001"\n');
    expect(loadConfigFile(options)).toEqual(first);
    expect(first.forward).toEqual({ url: 'ws://127.0.0.1:3001', reconnect_interval_ms: 3000 });
  });
});

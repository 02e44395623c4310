import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer } from '../support/onebot-peer.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// kill -9 of the host while messages stream in: every message the host acknowledged (stored,
// then acked to the adapter) is in the database after the crash, and a restarted host takes
// up the unread ones.


describe('the host killed with SIGKILL', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });

  it('[fault] during ingestion keeps every acknowledged inbound message, and the next start runs cleanly on the same files', async () => {
    const cwd = tempDir();
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[platform]\nadapter = "onebot_v11"\n[chat]\nmessage_buffer_seconds = 30\n');
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `[reverse]\nport = ${port}\n`);
    const args = ['start', '--config-dir', 'config', '--data-dir', 'data', '--log-level', 'debug'];
    const bot = run(args, { cwd });
    await bot.waitForLog(/^ready in/);
    const peer = new OneBotPeer({ selfId: '10000', waitTimeoutMs: 30_000 });
    peers.push(peer);
    peer.connectReverse({ url: `ws://127.0.0.1:${port}/onebot/v11/ws` });
    await peer.waitForConnection();
    for (let index = 0; index < 200; index += 1) peer.pushPrivateMessage({ userId: 42 + (index % 5), message: `消息 ${index}` });
    await bot.waitForLog(/^stored an inbound message$/);
    // Let some more be stored, then pull the plug mid-stream.
    await new Promise((resolve) => setTimeout(resolve, 50));
    bot.child.kill('SIGKILL');
    await bot.exited;
    const acknowledged = bot.logs.filter((record) => record['msg'] === 'stored an inbound message').map((record) => String(record['message_id']));
    expect(acknowledged.length).toBeGreaterThan(0);

    const database = new Database(join(cwd, 'data', 'moonglass.db'), { readonly: true });
    const stored = new Set((database.prepare("SELECT message_id FROM messages WHERE direction = 'inbound'").all() as { message_id: string }[]).map((row) => row.message_id));
    database.close();
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);

    // A new host on the same files starts cleanly and wakes the streams with unread messages.
    const again = run(args, { cwd });
    await again.waitForLog(/^ready in/);
    again.child.kill('SIGTERM');
    expect(await again.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});

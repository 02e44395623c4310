import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { OneBotPeer } from '../support/onebot-peer.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// Issue 17 item 1 (forward part), end to end: the real CLI, its forked OneBot adapter in
// forward mode, and two loopback QQ clients (accounts 10001 and 10002) listening for it.

const NDFC_CONFIG = '[plugin]\ntyping_delay_per_char = 0.01\n';

function sentTexts(peer: OneBotPeer): string[] {
  return peer.actions
    .filter((request) => request.action === 'send_private_msg')
    .map((request) => (request.params['message'] as { data: Record<string, unknown> }[]).map((segment) => String(segment.data['text'] ?? '')).join(''));
}

describe('npm start with the OneBot v11 adapter connecting to several QQ clients', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });

  function peer(selfId: string): OneBotPeer {
    const created = new OneBotPeer({ selfId, waitTimeoutMs: 30_000 });
    peers.push(created);
    return created;
  }

  it('[issue 17.1] answers a private message on each client’s own connection, and keeps answering one when the other stops', async () => {
    const first = peer('10001');
    const second = peer('10002');
    const a = await first.listenForward({ token: 'shared-token' });
    const b = await second.listenForward({ token: 'token-of-b' });
    const cwd = tempDir();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[platform]\nadapter = "onebot_v11"\n[accounts]\nqq = "10001"\n');
    writeFileSync(
      join(cwd, 'config', 'adapters', 'onebot_v11.toml'),
      'mode = "forward"\naccess_token = "shared-token"\n[forward]\nreconnect_interval_ms = 100\n' +
        `[[forward.endpoints]]\nurl = "${a.url}"\n[[forward.endpoints]]\nurl = "${b.url}"\naccess_token = "token-of-b"\n`,
    );
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd, pluginConfigs: { neo_default_chatter: NDFC_CONFIG } });
    await bot.waitForLog(new RegExp(`^OneBot forward mode: connecting to ${a.url}, ${b.url}$`));
    await Promise.all([first.waitForConnection(), second.waitForConnection()]);

    first.pushPrivateMessage({ userId: 42, nickname: '阿明', message: '你好，一号' });
    await first.waitForAction('send_private_msg');
    second.pushPrivateMessage({ userId: 43, nickname: '小红', message: '你好，二号' });
    await second.waitForAction('send_private_msg');
    expect(first.actions.filter((request) => request.action === 'send_private_msg').map((request) => request.params['user_id'])).toEqual([42]);
    expect(second.actions.filter((request) => request.action === 'send_private_msg').map((request) => request.params['user_id'])).toEqual([43]);
    expect(sentTexts(first)[0]).toContain('你好，一号');
    expect(sentTexts(second)[0]).toContain('你好，二号');

    await second.close();
    await bot.waitForLog(new RegExp(`^OneBot connection to ${b.url} lost`));
    first.pushPrivateMessage({ userId: 42, nickname: '阿明', message: '还在吗' });
    await first.waitForAction('send_private_msg', 2);
    expect(sentTexts(first)[1]).toContain('还在吗');
    expect(first.connectionCount).toBe(1);

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(bot.stdout.join('\n') + bot.stderr.join('\n')).not.toContain('token-of-b');
  }, 60_000);
});

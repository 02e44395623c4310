import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer } from '../support/onebot-peer.js';
import { storedRows } from '../support/stored-messages.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// The real CLI runs the host, which forks the OneBot adapter; a loopback peer connects as
// NapCat does. The offline demo model calls the tool a message names (`!send_media {...}`).

const TOKEN = 'media-token';
const NDFC_CONFIG = '[plugin]\ntyping_delay_per_char = 0.01\n';

describe('npm start with the OneBot v11 adapter: send_media (issue 17 item 3)', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });

  it('[issue 17] a picture from the data folder reaches the peer as an image segment (base64 of the file) after the caption; a URL picture without a caption goes alone; both are stored with [图片]', async () => {
    const cwd = tempDir();
    const picture = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9, 9]);
    mkdirSync(join(cwd, 'data', 'media'), { recursive: true });
    writeFileSync(join(cwd, 'data', 'media', 'cat.png'), picture);
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[platform]\nadapter = "onebot_v11"\n[accounts]\nqq = "10000"\n');
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `access_token = "${TOKEN}"\n[reverse]\nport = ${port}\n`);
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd, pluginConfigs: { neo_default_chatter: NDFC_CONFIG } });
    const listening = await bot.waitForLog(/^OneBot reverse mode: listening on /);
    await bot.waitForLog(/^ready in/);
    const napcat = new OneBotPeer({ selfId: '10000', waitTimeoutMs: 30_000 });
    peers.push(napcat);
    napcat.connectReverse({ url: String(listening['msg']).replace('OneBot reverse mode: listening on ', ''), token: TOKEN });
    await napcat.waitForConnection();

    napcat.pushPrivateMessage({ userId: 42, nickname: '阿明', message: '!send_media {"kind":"image","file":"media/cat.png","caption":"看猫"}' });
    const first = await napcat.waitForAction('send_private_msg');
    expect(first.params).toEqual({
      user_id: 42,
      message: [
        { type: 'text', data: { text: '看猫' } },
        { type: 'image', data: { file: `base64://${picture.toString('base64')}` } },
      ],
    });

    napcat.pushPrivateMessage({ userId: 42, nickname: '阿明', message: '!send_media {"kind":"image","file":"https://img.example/cat.png"}' });
    const second = await napcat.waitForAction('send_private_msg', 2);
    expect(second.params).toEqual({ user_id: 42, message: [{ type: 'image', data: { file: 'https://img.example/cat.png' } }] });

    const outbound = () => storedRows(join(cwd, 'data'), "SELECT processed_plain_text AS text, message_type AS type FROM messages WHERE direction = 'outbound' ORDER BY row_id");
    await until(() => outbound().length === 2, { what: 'both sends to be stored' });
    expect(outbound()).toEqual([
      { text: '看猫 [图片]', type: 'mixed' },
      { text: '[图片]', type: 'mixed' },
    ]);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});

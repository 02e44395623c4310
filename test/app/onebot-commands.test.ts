import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer, type PeerActionRequest } from '../support/onebot-peer.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// Issue 18 items 1-2 through the real CLI, the forked OneBot adapter and a loopback QQ client:
// commands after an @ of the bot in a group, refused for a member, run for the configured owner.

const TOKEN = 'cmd-token';
const OWNER = 99;
const MEMBER = 42;

function textOf(send: PeerActionRequest): string {
  const segments = send.params['message'] as { type: string; data: Record<string, unknown> }[];
  return segments.filter((segment) => segment.type === 'text').map((segment) => String(segment.data['text'])).join('');
}

describe('commands on a real bot with the OneBot v11 adapter', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });

  it('[issue 18] refuses a group member the owner command /status, runs it for the owner in bot.toml, and /help after @bot differs by level', async () => {
    const cwd = tempDir();
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), `[platform]\nadapter = "onebot_v11"\n[accounts]\nqq = "10000"\n[permissions]\nowners = { qq = ["${OWNER}"] }\n`);
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `access_token = "${TOKEN}"\n[reverse]\nport = ${port}\n`);
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd });
    const listening = await bot.waitForLog(/^OneBot reverse mode: listening on /);
    const url = String(listening['msg']).replace('OneBot reverse mode: listening on ', '');
    await bot.waitForLog(/^ready in/);

    const napcat = new OneBotPeer({ selfId: '10000', waitTimeoutMs: 30_000 });
    peers.push(napcat);
    napcat.connectReverse({ url, token: TOKEN });
    await napcat.waitForConnection();
    const atBot = (text: string) => [{ type: 'at', data: { qq: '10000' } }, { type: 'text', data: { text } }];

    napcat.pushGroupMessage({ groupId: 777, userId: MEMBER, nickname: '阿明', message: atBot(' /status') });
    expect(textOf(await napcat.waitForAction('send_group_msg', 1))).toBe('没有权限：/status 仅限主人使用（你是成员）');

    napcat.pushGroupMessage({ groupId: 777, userId: OWNER, nickname: '主人', message: atBot(' /status') });
    expect(textOf(await napcat.waitForAction('send_group_msg', 2))).toMatch(/^已运行 [\s\S]*今天收到 \d+ 条、发出 \d+ 条消息$/);

    napcat.pushGroupMessage({ groupId: 777, userId: MEMBER, nickname: '阿明', message: atBot(' /help') });
    const memberHelp = textOf(await napcat.waitForAction('send_group_msg', 3));
    napcat.pushGroupMessage({ groupId: 777, userId: OWNER, nickname: '主人', message: atBot(' /help') });
    const ownerHelp = textOf(await napcat.waitForAction('send_group_msg', 4));
    expect(memberHelp).toContain('可用命令（你是成员）');
    expect(memberHelp).not.toContain('/status');
    expect(ownerHelp).toContain('/status — ');
    expect(ownerHelp).toContain('/plugin — ');

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  });
});

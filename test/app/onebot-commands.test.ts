import { afterEach, describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { sentText, startOneBotBot } from '../support/onebot-bot.js';
import type { OneBotPeer } from '../support/onebot-peer.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// Issue 18 items 1-2 through the real CLI, the forked OneBot adapter and a loopback QQ client:
// commands after an @ of the bot in a group, refused for a member, run for the configured owner.

const TOKEN = 'cmd-token';
const OWNER = 99;
const MEMBER = 42;

describe('commands on a real bot with the OneBot v11 adapter', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });

  it('[issue 18] refuses a group member the owner command /status, runs it for the owner in bot.toml, and /help after @bot differs by level', async () => {
    const cwd = tempDir();
    const { bot, peer: napcat } = await startOneBotBot({ run, cwd, token: TOKEN, selfId: '10000', peers, botToml: `[accounts]\nqq = "10000"\n[permissions]\nowners = { qq = ["${OWNER}"] }\n` });
    const atBot = (text: string) => [{ type: 'at', data: { qq: '10000' } }, { type: 'text', data: { text } }];

    napcat.pushGroupMessage({ groupId: 777, userId: MEMBER, nickname: '阿明', message: atBot(' /status') });
    expect(sentText(await napcat.waitForAction('send_group_msg', 1))).toBe('没有权限：/status 仅限主人使用（你是成员）');

    napcat.pushGroupMessage({ groupId: 777, userId: OWNER, nickname: '主人', message: atBot(' /status') });
    expect(sentText(await napcat.waitForAction('send_group_msg', 2))).toMatch(/^已运行 [\s\S]*今天收到 \d+ 条、发出 \d+ 条消息$/);

    napcat.pushGroupMessage({ groupId: 777, userId: MEMBER, nickname: '阿明', message: atBot(' /help') });
    const memberHelp = sentText(await napcat.waitForAction('send_group_msg', 3));
    napcat.pushGroupMessage({ groupId: 777, userId: OWNER, nickname: '主人', message: atBot(' /help') });
    const ownerHelp = sentText(await napcat.waitForAction('send_group_msg', 4));
    expect(memberHelp).toContain('可用命令（你是成员）');
    expect(memberHelp).not.toContain('/status');
    expect(ownerHelp).toContain('/status — ');
    expect(ownerHelp).toContain('/plugin — ');

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  });
});

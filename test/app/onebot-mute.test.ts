import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { sentText, startOneBotBot } from '../support/onebot-bot.js';
import type { OneBotPeer } from '../support/onebot-peer.js';
import { storedRows } from '../support/stored-messages.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// Issue 18 item 2 through the real CLI, the forked OneBot adapter and a loopback QQ client:
// an owner's /mute silences a group (its messages stored as read, never answered) until
// /unmute; a member's /mute is refused; /status lists the connected account. (/help by level
// is proven in onebot-commands.test.ts.)

const TOKEN = 'mute-token';
const OWNER = 99;
const MEMBER = 42;
const GROUP = 777;

describe('/mute on a real bot with the OneBot v11 adapter', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });

  it('[issue 18] a member’s /mute is refused and an owner’s mutes the group (messages stored, not answered) until /unmute; a bad duration gets the usage line; /status shows the connected account', async () => {
    const cwd = tempDir();
    // Every @ passes NDFC's probability gate (the process's random is the system's), and replies are typed quickly.
    const pluginConfigs = { neo_default_chatter: '[plugin]\nprobability_mention = 1.0\ntyping_delay_per_char = 0.01\n' };
    const { bot, peer: napcat } = await startOneBotBot({ run, cwd, token: TOKEN, selfId: '10000', peers, pluginConfigs, botToml: `[bot]\ntimezone = "UTC"\n[accounts]\nqq = "10000"\n[permissions]\nowners = { qq = ["${OWNER}"] }\n` });
    const atBot = (text: string) => [{ type: 'at', data: { qq: '10000' } }, { type: 'text', data: { text } }];
    const plain = (text: string) => [{ type: 'text', data: { text } }];
    let replies = 0;
    const nextReply = async () => sentText(await napcat.waitForAction('send_group_msg', ++replies));

    napcat.pushGroupMessage({ groupId: GROUP, userId: MEMBER, nickname: '阿明', message: plain('/mute 30m') });
    expect(await nextReply()).toBe('没有权限：/mute 仅限主人使用（你是成员）');

    napcat.pushGroupMessage({ groupId: GROUP, userId: OWNER, nickname: '主人', message: atBot(' /status') });
    expect(await nextReply()).toContain('账号 10000（月璃）：已连接');

    napcat.pushGroupMessage({ groupId: GROUP, userId: OWNER, nickname: '主人', message: plain('/mute soon') });
    expect(await nextReply()).toBe('参数 duration 不对：“soon”不是时长，写成 30m、2h、1d、90s、1h30m 或 30分钟\n用法：/mute <duration>');

    napcat.pushGroupMessage({ groupId: GROUP, userId: OWNER, nickname: '主人', message: plain('/mute 30m') });
    expect(await nextReply()).toMatch(/^本群禁言到 \d{4}-\d\d-\d\d \d\d:\d\d（UTC）：期间消息只记录不回复/);
    await bot.waitForLog(/^chat .* muted until /);

    // Muted: an @ of the bot is stored and not answered; a member's command too.
    napcat.pushGroupMessage({ groupId: GROUP, userId: MEMBER, nickname: '阿明', message: atBot(' 禁言时的话') });
    napcat.pushGroupMessage({ groupId: GROUP, userId: MEMBER, nickname: '阿明', message: atBot(' /help') });
    // The owner's commands still run; their replies are the next ones sent.
    napcat.pushGroupMessage({ groupId: GROUP, userId: OWNER, nickname: '主人', message: atBot(' /status') });
    const status = await nextReply();
    expect(status).toMatch(/这里禁言到 \d{4}-\d\d-\d\d \d\d:\d\d（UTC）/);
    napcat.pushGroupMessage({ groupId: GROUP, userId: OWNER, nickname: '主人', message: plain('/unmute') });
    expect(await nextReply()).toBe('本群已解除禁言');

    napcat.pushGroupMessage({ groupId: GROUP, userId: MEMBER, nickname: '阿明', message: atBot(' 解禁后的话') });
    const answer = await nextReply();
    expect(answer).toContain('（演示模型）收到：');
    expect(answer).toContain('解禁后的话');

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    // Nothing else was sent: the muted messages got no reply, before or after /unmute.
    const sent = napcat.actions.filter((request) => request.action === 'send_group_msg').map(sentText);
    expect(sent).toHaveLength(replies);
    expect(sent.filter((text) => text.includes('收到：') && text.includes('禁言时的话'))).toEqual([]);
    const inbound = storedRows(join(cwd, 'data'), "SELECT content, unread FROM messages WHERE direction = 'inbound' ORDER BY row_id");
    expect(inbound).toEqual(expect.arrayContaining([expect.objectContaining({ content: expect.stringContaining('禁言时的话'), unread: 0 })]));
    expect(storedRows(join(cwd, 'data'), 'SELECT COUNT(*) AS count FROM chat_mutes')).toEqual([{ count: 0 }]);
  }, 90_000);
});

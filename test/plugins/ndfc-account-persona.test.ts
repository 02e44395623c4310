import { describe, expect, it } from 'vitest';
import type { BotConfigInput } from '../../src/chat/bot-config.js';
import { SequenceRandom } from '../../src/kernel/time/random.js';
import type { ModelCall } from '../../src/llm/model-client.js';
import { payloadText } from '../../src/llm/payload-text.js';
import { textReply, useTestHosts } from '../support/ndfc.js';

// Issue 17 item 1: bot.toml [accounts."<self id>"] overrides the persona of that account; NDFC
// runs each conversation with the persona of the account its stream belongs to.

const promptOf = (call: ModelCall | undefined, role: 'system' | 'user'): string =>
  (call?.payloads ?? [])
    .filter((payload) => payload.role === role)
    .map((payload) => payloadText(payload))
    .join('\n');

/** Account 10000 is the default (the [bot] persona); 10001 has a persona of its own. */
const TWO_ACCOUNTS: BotConfigInput = {
  bot: { nickname: '月璃', aliases: ['小月'], personality: '月璃的性格：安静。', speaking_style: '月璃的说话方式：简短。' },
  accounts: {
    qq: '10000',
    '10001': { nickname: '星璃', aliases: ['小星'], personality: '星璃的性格：热闹。', identity: '星璃的身份：另一个号。' },
  },
};

describe('NDFC with a persona per bot account (bot.toml [accounts."<id>"])', () => {
  const start = useTestHosts();

  it('[issue 17] each conversation’s system prompt names its own account’s nickname, aliases and personality; what the table leaves out comes from [bot]', async () => {
    const test = await start({ botConfig: TWO_ACCOUNTS, script: textReply('') });
    await test.host.receive({ platform: 'qq', message_id: 'a-1', chat_type: 'private', account: '10000', sender: { id: '20001', name: '阿明' }, content: '给一号的' });
    await test.host.receive({ platform: 'qq', message_id: 'b-1', chat_type: 'private', account: '10001', sender: { id: '20002', name: '阿红' }, content: '给二号的' });
    await test.settle(5_000);
    const systemFor = (text: string) => promptOf(test.model.calls.find((call) => promptOf(call, 'user').includes(text)), 'system');
    const first = systemFor('给一号的');
    const second = systemFor('给二号的');
    expect(first).toContain('月璃');
    expect(first).toContain('小月');
    expect(first).toContain('月璃的性格：安静。');
    expect(first).not.toContain('星璃');
    expect(second).toContain('星璃');
    expect(second).toContain('小星');
    expect(second).toContain('星璃的性格：热闹。');
    expect(second).toContain('星璃的身份：另一个号。');
    // Left out of the table: [bot] speaking_style.
    expect(second).toContain('月璃的说话方式：简短。');
    expect(second).not.toMatch(/月璃(?!的说话方式)|小月|安静/);
  });

  it('[issue 17] a mention of the account in a prompt line reads as that account’s nickname', async () => {
    const test = await start({ botConfig: TWO_ACCOUNTS, script: textReply('') });
    await test.host.receive({
      platform: 'qq',
      message_id: 'b-2',
      chat_type: 'private',
      account: '10001',
      sender: { id: '20002', name: '阿红' },
      content: '@10001 你好',
      at_users: ['10001'],
      mentions_bot: true,
    });
    await test.settle(5_000);
    expect(promptOf(test.model.calls[0], 'user')).toContain('阿红（用户 20002，消息 b-2）： @星璃 你好');
  });

  it('[issue 17] the group probability gate counts the names of the stream’s account only', async () => {
    // Only a name counts (base, per unread and mention are 0); chance draws of 0.5 pass at probability 1 only.
    const test = await start({
      botConfig: TWO_ACCOUNTS,
      random: new SequenceRandom([0.5]),
      script: textReply(''),
      pluginConfigs: {
        neo_default_chatter: '[plugin]\nprobability_base = 0\nprobability_per_unread = 0\nprobability_mention = 0\nprobability_name = 1\nenable_sub_agent_decision = false\n',
      },
    });
    const group = (id: string) => ({ id, name: `群${id}` });
    await test.host.receive({ platform: 'qq', message_id: 'g-1', chat_type: 'group', group: group('301'), account: '10001', sender: { id: '20001', name: '阿明' }, content: '小星在吗' });
    await test.host.receive({ platform: 'qq', message_id: 'g-2', chat_type: 'group', group: group('302'), account: '10001', sender: { id: '20001', name: '阿明' }, content: '月璃在吗' });
    await test.host.receive({ platform: 'qq', message_id: 'g-3', chat_type: 'group', group: group('303'), account: '10000', sender: { id: '20001', name: '阿明' }, content: '小星在吗' });
    await test.host.receive({ platform: 'qq', message_id: 'g-4', chat_type: 'group', group: group('304'), account: '10000', sender: { id: '20001', name: '阿明' }, content: '小月在吗' });
    await test.settle(5_000);
    const answered = ['g-1', 'g-2', 'g-3', 'g-4'].filter((id) => test.model.calls.some((call) => promptOf(call, 'user').includes(`消息 ${id}）`)));
    expect(answered).toEqual(['g-1', 'g-4']);
  });

  it('[issue 17] the sub-agent deciding whether to answer in a group is told the stream’s account’s nickname', async () => {
    const test = await start({
      botConfig: TWO_ACCOUNTS,
      random: new SequenceRandom([0.5]),
      script: textReply('{"respond": false, "reason": "闲聊"}'),
      pluginConfigs: { neo_default_chatter: '[plugin]\nprobability_base = 0\nprobability_per_unread = 0\nenable_sub_agent_decision = true\n' },
    });
    await test.host.receive({ platform: 'qq', message_id: 'g-5', chat_type: 'group', group: { id: '305', name: '群305' }, account: '10001', sender: { id: '20001', name: '阿明' }, content: '今天天气不错' });
    await test.settle(5_000);
    const decision = test.model.calls.map((call) => promptOf(call, 'system')).find((system) => system.startsWith('你在判断'));
    expect(decision).toContain('你在判断「星璃」要不要回应群聊里的新消息');
  });

  it('[issue 17] runtime.personaOf(streamId) is the stream’s account’s persona; runtime.bot stays bot.toml as written', async () => {
    const test = await start({ botConfig: TWO_ACCOUNTS, script: textReply('') });
    const outcome = await test.host.receive({ platform: 'qq', message_id: 'b-3', chat_type: 'private', account: '10001', sender: { id: '20002', name: '阿红' }, content: 'hi' });
    if (outcome.status !== 'delivered') throw new Error(`not delivered: ${outcome.status}`);
    const runtime = test.host.chat.runtime;
    expect(runtime.personaOf(outcome.message.streamId)).toMatchObject({ nickname: '星璃', aliases: ['小星'], speaking_style: '月璃的说话方式：简短。' });
    expect(runtime.personaOf('no-such-stream').nickname).toBe('月璃');
    expect(runtime.personaOfAccount('10000').nickname).toBe('月璃');
    expect(runtime.personaOfAccount(null).nickname).toBe('月璃');
    expect(runtime.bot.bot.nickname).toBe('月璃');
  });
});

describe("the bot's own messages per account", () => {
  const start = useTestHosts();

  it('[issue 17] are stored under the nickname of the account they went out on', async () => {
    const test = await start({ botConfig: TWO_ACCOUNTS, script: textReply('') });
    const outcome = await test.host.receive({ platform: 'qq', message_id: 'c-1', chat_type: 'private', account: '10001', sender: { id: '20003', name: '阿青' }, content: '在吗' });
    const streamId = outcome.status === 'delivered' ? outcome.message.streamId : '';
    const sent = await test.host.chat.streams.send(streamId, { content: '在的' });
    expect(sent.status === 'sent' && sent.message).toMatchObject({ senderName: '星璃', senderId: '10001' });
    expect(test.host.chat.database.messages.history(streamId, 5).find((message) => message.direction === 'outbound')).toMatchObject({ senderName: '星璃' });
  });
});

import { describe, expect, it } from 'vitest';
import { SequenceRandom } from '../../../src/kernel/time/random.js';
import type { ModelCall } from '../../../src/llm/model-client.js';
import { payloadText } from '../../../src/llm/payload-text.js';
import { NdfcPublisher } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-publisher.js';
import { textReply, toolReply, useTestHosts } from '../../support/ndfc.js';

/** The text of a call's payloads of one role, joined. */
const promptOf = (call: ModelCall | undefined, role: 'system' | 'user'): string =>
  (call?.payloads ?? [])
    .filter((payload) => payload.role === role)
    .map((payload) => payloadText(payload))
    .join('\n');

// The manual clock starts at 2026-01-01 00:00 UTC: 08:00 in Shanghai, 19:00 the day before in New York.
describe('what the model sees in NDFC prompt lines (issue 15, item 7)', () => {
  const start = useTestHosts();

  it('[issue 15] each line carries its message id, and a send_text quoting it with reply_to goes out as a reply to it', async () => {
    const test = await start({
      script: (call) => {
        const id = /（用户 10001，消息 ([^）]+)）： 在吗/.exec(promptOf(call, 'user'))?.[1];
        return id === undefined ? textReply('') : toolReply([{ name: 'send_text', args: { content: '在', reply_to: id } }]);
      },
    });
    await test.adapter.send('在吗');
    await test.settle(5_000);
    expect(promptOf(test.model.calls[0], 'user')).toContain('】user 10001（用户 10001，消息 in-1）： 在吗');
    expect(test.adapter.sent).toHaveLength(1);
    expect(test.adapter.sent[0]).toMatchObject({ content: '在', replyTo: 'in-1' });
  });

  it('[issue 15] a mention given as a bare account id shows the person: the bot by its name, someone the chat has seen by theirs, else 用户<id>', async () => {
    const test = await start({ random: new SequenceRandom([0]), botConfig: { accounts: { qq: '99999' } }, script: textReply('') });
    const group = { id: '555', name: '测试群' };
    await test.host.receive({ platform: 'qq', message_id: 'g-1', chat_type: 'group', group, sender: { id: '10002', name: 'hong', card: '小红' }, content: '大家好' });
    await test.host.receive({
      platform: 'qq',
      message_id: 'g-2',
      chat_type: 'group',
      group,
      sender: { id: '10001', name: '阿明' },
      content: '@99999 @10002 @10009 @100021 看这个',
      at_users: ['99999', '10002', '10009'],
      mentions_bot: true,
    });
    await test.settle(2_000);
    const prompts = test.model.calls.map((call) => promptOf(call, 'user')).join('\n');
    expect(prompts).toContain('阿明（用户 10001，消息 g-2）： @月璃 @小红 @用户10009 @100021 看这个');
  });

  it('[issue 15] the platform is named for people: QQ for the OneBot adapter’s qq, 终端 for the console', async () => {
    const test = await start({ script: textReply('') });
    await test.adapter.send('你好', { platform: 'qq' });
    await test.adapter.send('你好', { platform: 'console', user: '20002' });
    await test.settle(2_000);
    const systems = test.model.calls.map((call) => promptOf(call, 'system'));
    expect(systems.some((system) => system.includes('我在QQ的私聊里'))).toBe(true);
    expect(systems.some((system) => system.includes('我在终端的私聊里'))).toBe(true);
    expect(systems.join('\n')).not.toMatch(/我在(qq|console)的/);
  });

  it('[issue 15] every time in a prompt is in bot.toml [bot] timezone, and "now" names the zone and its offset (no UTC ISO string)', async () => {
    const test = await start({ botConfig: { bot: { timezone: 'Asia/Shanghai' } }, script: textReply('') });
    const now = test.clock.now() / 1000;
    // A message the platform stamped yesterday (answered only now, after a restart, say) shows its date.
    await test.host.receive({ platform: 'qq', message_id: 'old', chat_type: 'private', sender: { id: '10001', name: '阿明' }, content: '昨晚的', time: now - 86_400 + 600 });
    await test.host.receive({ platform: 'qq', message_id: 'new', chat_type: 'private', sender: { id: '10001', name: '阿明' }, content: '今早的', time: now + 300 });
    await test.settle(2_000);
    const user = promptOf(test.model.calls[0], 'user');
    expect(user).toContain('【2025-12-31 08:10】阿明（用户 10001，消息 old）： 昨晚的');
    expect(user).toContain('【08:05】阿明（用户 10001，消息 new）： 今早的');
    expect(user).toContain('现在是 2026-01-01 08:00（星期四，Asia/Shanghai 时间，UTC+08:00；消息时间同此时区）');
    expect(user).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  });

  it('[issue 15] a time_format given to :format_unread_line is read in the same zone, %z its offset', async () => {
    const test = await start({ botConfig: { bot: { timezone: 'Asia/Kolkata' } }, script: textReply('') });
    const outcome = await test.adapter.send('hi');
    if (outcome.status !== 'delivered') throw new Error(`not delivered: ${outcome.status}`);
    const line = await NdfcPublisher.formatUnreadLine(outcome.message.streamId, outcome.message, '%Y-%m-%d %H:%M %z');
    expect(line).toBe('【2026-01-01 05:30 +05:30】user 10001（用户 10001，消息 in-1）： hi');
  });

  it('[issue 15] a zone west of UTC moves the day and the offset with it', async () => {
    const test = await start({ botConfig: { bot: { timezone: 'America/New_York' } }, script: textReply('') });
    await test.adapter.send('晚上好');
    await test.settle(2_000);
    const user = promptOf(test.model.calls[0], 'user');
    expect(user).toContain('【19:00】user 10001（用户 10001，消息 in-1）： 晚上好');
    expect(user).toContain('现在是 2025-12-31 19:00（星期三，America/New_York 时间，UTC-05:00；消息时间同此时区）');
  });

  it('[issue 15] an empty timezone is the machine’s (here TZ=Asia/Kolkata, UTC+05:30)', async () => {
    const before = process.env['TZ'];
    process.env['TZ'] = 'Asia/Kolkata';
    try {
      const test = await start({ script: textReply('') });
      await test.adapter.send('hi');
      await test.settle(2_000);
      const user = promptOf(test.model.calls[0], 'user');
      expect(user).toContain('【05:30】user 10001（用户 10001，消息 in-1）： hi');
      expect(user).toMatch(/现在是 2026-01-01 05:30（星期四，Asia\/(Kolkata|Calcutta) 时间，UTC\+05:30；/);
    } finally {
      if (before === undefined) delete process.env['TZ'];
      else process.env['TZ'] = before;
    }
  });

  it('[issue 15] the bot’s own replies in the history read 我, and a reply to a message says which', async () => {
    const test = await start({
      script: (call) =>
        promptOf(call, 'user').includes('第一句')
          ? toolReply([
              { name: 'send_text', args: { content: '收到' } },
              { name: 'stop_conversation', args: { minutes: 0 } },
            ])
          : textReply(''),
    });
    await test.adapter.send('第一句');
    await test.settle(5_000);
    expect(test.adapter.texts()).toEqual(['收到']);
    // The run ended: the next message starts a new one, whose prompt carries the history.
    await test.host.receive({ platform: 'test', message_id: 'in-2', chat_type: 'private', sender: { id: '10001', name: 'user 10001' }, content: '第二句', reply_to: 'out-1' });
    await test.settle(2_000);
    const user = promptOf(test.model.calls.at(-1), 'user');
    expect(user).toMatch(/<history>[\s\S]*月璃（我，消息 out-1）： 收到[\s\S]*<\/history>/);
    expect(user).toContain('user 10001（用户 10001，消息 in-2，回复消息 out-1）： 第二句');
  });
});

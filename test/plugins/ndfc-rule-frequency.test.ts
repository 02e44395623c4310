import { describe, expect, it } from 'vitest';
import type { BotConfigInput } from '../../src/chat/bot-config.js';
import { SeededRandom } from '../../src/kernel/time/random.js';
import type { ModelCall } from '../../src/llm/model-client.js';
import { payloadText } from '../../src/llm/payload-text.js';
import { textReply, useTestHosts } from '../support/ndfc.js';

// Issue 18 item 3: a bot.toml [[rules]] frequency multiplies NDFC's probability-gate chance
// for messages that do not @ or reply to the bot; those are never scaled.

/** Without the rule every group message passes the gate (chance 1, no sub-agent, no typing delay). */
const NDFC_ALWAYS = {
  neo_default_chatter: [
    '[plugin]',
    'probability_base = 1',
    'probability_per_unread = 0',
    'probability_mention = 0',
    'probability_name = 0',
    'enable_sub_agent_decision = false',
    'typing_delay_per_char = 0',
    '',
  ].join('\n'),
};

const userText = (call: ModelCall): string =>
  call.payloads
    .filter((payload) => payload.role === 'user')
    .map((payload) => payloadText(payload))
    .join('\n');

/** The message ids among `ids` that reached the model (their conversation went on past preprocess). */
function answered(calls: readonly ModelCall[], ids: readonly string[]): string[] {
  const texts = calls.map(userText);
  return ids.filter((id) => texts.some((text) => text.includes(`消息 ${id}）`)));
}

describe('NDFC with a per-chat rule frequency (bot.toml [[rules]])', () => {
  const start = useTestHosts();

  it('[issue 18.3] a rule with frequency 0.25 lets about a quarter of unaddressed group messages through over 400 messages with a seeded random, and @ always gets through', async () => {
    const botConfig: BotConfigInput = { rules: [{ name: 'quarter', private: false, frequency: 0.25 }] };
    const test = await start({ botConfig, random: new SeededRandom(18_3), script: textReply(''), pluginConfigs: NDFC_ALWAYS });
    // One message per group: each is one decision of the gate (no unreads pile up between them).
    const plain = Array.from({ length: 400 }, (_, index) => `p-${index}`);
    const mentions = Array.from({ length: 40 }, (_, index) => `m-${index}`);
    for (const [index, id] of plain.entries()) {
      await test.host.receive({ platform: 'qq', message_id: id, chat_type: 'group', group: { id: String(5000 + index), name: `群${index}` }, sender: { id: '20001', name: '阿明' }, content: '今天天气不错' });
    }
    for (const [index, id] of mentions.entries()) {
      await test.host.receive({
        platform: 'qq',
        message_id: id,
        chat_type: 'group',
        group: { id: String(9000 + index), name: `群m${index}` },
        sender: { id: '20001', name: '阿明' },
        content: '@月璃 在吗',
        mentions_bot: true,
      });
    }
    await test.settle(3_000);
    const share = answered(test.model.calls, plain).length / plain.length;
    // ±0.07 is three standard deviations of 400 draws at 0.25; a multiplier of 0.5 (or none) is far outside.
    expect(share).toBeGreaterThan(0.18);
    expect(share).toBeLessThan(0.32);
    expect(answered(test.model.calls, mentions)).toEqual(mentions);
  });

  it('[issue 18.3] without a matching rule every message passes the same gate; frequency 0 answers only @ and never asks the sub-agent', async () => {
    const botConfig: BotConfigInput = { rules: [{ name: 'silent', groups: ['7001', '7002'], frequency: 0 }] };
    const withSubAgent = { neo_default_chatter: NDFC_ALWAYS.neo_default_chatter.replace('enable_sub_agent_decision = false', 'enable_sub_agent_decision = true') };
    const test = await start({ botConfig, random: new SeededRandom(7), script: textReply('{"respond": true, "reason": "x"}'), pluginConfigs: withSubAgent });
    const group = (id: string) => ({ id, name: `群${id}` });
    await test.host.receive({ platform: 'qq', message_id: 'o-1', chat_type: 'group', group: group('7000'), sender: { id: '20001', name: '阿明' }, content: '别的群' });
    await test.host.receive({ platform: 'qq', message_id: 's-1', chat_type: 'group', group: group('7001'), sender: { id: '20001', name: '阿明' }, content: '没人理' });
    await test.host.receive({ platform: 'qq', message_id: 's-2', chat_type: 'group', group: group('7002'), sender: { id: '20001', name: '阿明' }, content: '@月璃 在吗', mentions_bot: true });
    await test.settle(3_000);
    expect(answered(test.model.calls, ['o-1', 's-1', 's-2'])).toEqual(['o-1', 's-2']);
    const subAgentCalls = test.model.calls.filter((call) => call.payloads.some((payload) => payload.role === 'system' && payloadText(payload).startsWith('你在判断')));
    expect(subAgentCalls).toEqual([]);
  });
});

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { BotConfigInput } from '../../../src/chat/bot-config.js';
import { ChatRulesConfigSchema } from '../../../src/chat/rules/chat-rules-config.js';
import type { ModelCall } from '../../../src/llm/model-client.js';
import { payloadText } from '../../../src/llm/payload-text.js';
import { textReply, useTestHosts } from '../../support/ndfc.js';

const RULE_TOOLS = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures/rule-tools');

/** Groups always pass NDFC's gate here, so every message reaches the model. */
const NDFC_ALWAYS = { neo_default_chatter: '[plugin]\nprobability_base = 1\nenable_sub_agent_decision = false\ntyping_delay_per_char = 0\n' };

const RULES: BotConfigInput['rules'] = [
  { name: 'night persona', groups: ['801'], persona: { nickname: '夜璃', personality: '夜璃的性格：低声。' } },
  { name: 'no weather', groups: ['802'], tools_off: ['weather'] },
  { name: 'no plugin', groups: ['803'], plugins_off: ['test.rule-tools'] },
];

const textOf = (call: ModelCall, role: 'system' | 'user') =>
  call.payloads
    .filter((payload) => payload.role === role)
    .map((payload) => payloadText(payload))
    .join('\n');
const callFor = (calls: readonly ModelCall[], messageId: string) => calls.find((call) => textOf(call, 'user').includes(`消息 ${messageId}）`));
const toolNames = (call: ModelCall | undefined) => (call?.tools ?? []).map((declaration) => declaration.function.name);

describe('per-chat rules on a host (bot.toml [[rules]])', () => {
  const start = useTestHosts();
  const say = (groupId: string, messageId: string, content: string, mentionsBot = false) => ({
    platform: 'qq',
    message_id: messageId,
    chat_type: 'group' as const,
    group: { id: groupId, name: `群${groupId}` },
    sender: { id: '20001', name: '阿明' },
    content,
    ...(mentionsBot ? { mentions_bot: true } : {}),
  });

  it('[issue 18.3] a rule’s persona is the one NDFC’s system prompt uses in that chat; other chats keep theirs', async () => {
    const test = await start({ botConfig: { bot: { nickname: '月璃', personality: '月璃的性格：安静。' }, rules: RULES }, script: textReply(''), pluginConfigs: NDFC_ALWAYS });
    await test.host.receive(say('801', 'n-1', '晚上好'));
    await test.host.receive(say('804', 'n-2', '下午好'));
    await test.settle(3_000);
    const night = textOf(callFor(test.model.calls, 'n-1')!, 'system');
    expect(night).toContain('夜璃');
    expect(night).toContain('夜璃的性格：低声。');
    expect(night).not.toContain('月璃的性格：安静。');
    expect(textOf(callFor(test.model.calls, 'n-2')!, 'system')).toContain('月璃的性格：安静。');
  });

  it('[issue 18.3] tools_off and plugins_off hide tools from the model request; a call by name anyway is refused', async () => {
    const test = await start({ plugins: [RULE_TOOLS], botConfig: { rules: RULES }, script: textReply(''), pluginConfigs: NDFC_ALWAYS });
    const first = await test.host.receive(say('802', 't-1', '今天天气'));
    await test.host.receive(say('803', 't-2', '今天股价'));
    await test.host.receive(say('804', 't-3', '都查查'));
    await test.settle(3_000);
    const weatherOff = toolNames(callFor(test.model.calls, 't-1'));
    const pluginOff = toolNames(callFor(test.model.calls, 't-2'));
    const none = toolNames(callFor(test.model.calls, 't-3'));
    expect(none).toEqual(expect.arrayContaining(['weather', 'stock_price']));
    expect(weatherOff).toContain('stock_price');
    expect(weatherOff).not.toContain('weather');
    expect(pluginOff).not.toContain('weather');
    expect(pluginOff).not.toContain('stock_price');
    // The model names the tool anyway: it is not in the usable set, so the call fails with a reason.
    const streamId = first.status === 'delivered' ? first.message.streamId : '';
    const runtime = test.host.chat.runtime;
    const [outcome] = await runtime.runToolCalls(streamId, [{ id: 'x1', name: 'weather', args: {} }], await runtime.usablesFor(streamId));
    expect(outcome!.result.success).toBe(false);
    expect(outcome!.result.errorMessage ?? outcome!.result.observation).toContain('未知的工具 weather');
  });

  it('[issue 18.3] a command of a plugin in plugins_off is unknown in that chat and runs elsewhere; replace() puts new rules in use at once', async () => {
    const test = await start({ plugins: [RULE_TOOLS], botConfig: { rules: RULES }, script: textReply(''), pluginConfigs: NDFC_ALWAYS });
    const off = await test.host.receive(say('803', 'c-1', '@月璃 /ping', true));
    const on = await test.host.receive(say('804', 'c-2', '@月璃 /ping', true));
    // Taken by the commands gate (or passed on as an unknown command): stored either way.
    const offId = 'message' in off ? off.message.streamId : '';
    const onId = 'message' in on ? on.message.streamId : '';
    expect(on.status).toBe('stopped');
    await test.settle(3_000);
    const sentTo = (streamId: string) => test.adapter.sent.filter((sent) => sent.streamId === streamId).map((sent) => sent.content);
    expect(sentTo(offId).join('\n')).toContain('未知命令 /ping');
    expect(sentTo(onId)).toContain('pong');
    expect(test.host.chat.runtime.ruleFor(onId)).toBeUndefined();
    test.host.chat.rules.replace(ChatRulesConfigSchema.parse([{ name: 'everywhere', quiet: true }]));
    expect(test.host.chat.runtime.ruleFor(onId)).toMatchObject({ name: 'everywhere', index: 0, quiet: true });
    expect(test.host.chat.rules.list()).toHaveLength(1);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelCall } from '../../src/llm/model-client.js';
import type { ScriptedReply } from '../../src/llm/scripted-model.js';
import { withinHours } from '../../src/chat/rules/hour-range.js';
import { ProactiveSpeechConfig } from '../../src/plugins/built_in/proactive_speech/plugin.js';
import type { TestHost } from '../../src/testing.js';
import { useTestHosts } from '../support/ndfc.js';

// Issue 18 item 5 through the real host: the built-in proactive_speech plugin, its
// ctx.schedule job on the manual clock, StreamApi.listStreams, NDFC's `proactive` resume, the
// scripted model and the fake adapter. The clock starts at 2026-01-01 00:00 UTC.

const MINUTE = 60_000;
const PROACTIVE_TEXT = '大家好，好久没人说话啦';
const NDFC = '[plugin]\ntyping_delay_per_char = 0\ntyping_delay_max_seconds = 0\n';

/** The model: answers a proactive prompt with PROACTIVE_TEXT, a message with 收到, a tool result with nothing. */
function script(usage?: { promptTokens: number; completionTokens: number }) {
  return (call: ModelCall): ScriptedReply => {
    const last = call.payloads.at(-1);
    if (last === undefined || last.role !== 'user') return {};
    const text = JSON.stringify(last.content);
    const content = text.includes('群里已经安静了') ? PROACTIVE_TEXT : '收到';
    return { toolCalls: [{ id: 'c0', name: 'send_text', args: { content } }], ...(usage === undefined ? {} : { usage }) };
  };
}

function proactiveConfig(lines: Record<string, string>): string {
  return ['[plugin]', ...Object.entries(lines).map(([key, value]) => `${key} = ${value}`), ''].join('\n');
}

/** Moves the manual clock minute by minute, letting the schedule fire and the conversations settle. */
async function advance(test: TestHost, ms: number): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += MINUTE) {
    await test.clock.advance(Math.min(MINUTE, ms - elapsed));
    await test.settle(0);
  }
}

const speeches = (test: TestHost, group: string) => test.adapter.sent.filter((delivery) => delivery.groupId === group && delivery.content === PROACTIVE_TEXT).length;
const skips = (test: TestHost, reason: string) => test.logs.filter((record) => String(record['msg']).startsWith('proactive speech skipped') && String(record['msg']).includes(reason)).length;

describe('built-in plugin proactive_speech', () => {
  const start = useTestHosts();

  it('[issue 18.5] proactive speech speaks once in a quiet group inside its hours and never in quiet hours', async () => {
    const test = await start({
      script: script(),
      botConfig: { bot: { timezone: 'UTC' }, permissions: { owners: { test: ['90001'] } }, rules: [{ name: 'night', groups: ['222'], quiet: true }, { name: 'no-proactive', groups: ['444'], plugins_off: ['proactive_speech'] }] },
      pluginConfigs: {
        neo_default_chatter: NDFC,
        proactive_speech: proactiveConfig({ enabled: 'true', quiet_minutes: '30', hours: '["00:00-06:00"]', cooldown_minutes: '600', check_every_seconds: '300' }),
      },
    });
    await test.adapter.send('有人吗', { group: '111', mentionsBot: true });
    await test.adapter.send('晚上好', { group: '222', mentionsBot: true });
    await test.adapter.send('/mute 12h', { group: '333', user: '90001' });
    await test.adapter.send('有人吗', { group: '444', mentionsBot: true });
    await test.settle(0);
    // 222 is in its rule's quiet hours: stored, not answered; the owner's /mute in 333 is answered.
    expect(test.adapter.sent.filter((delivery) => delivery.groupId !== '333').map((delivery) => delivery.content)).toEqual(['收到', '收到']);
    expect(test.host.chat.runtime.silenceOf(test.host.chat.streams.listStreams({ chatType: 'group' }).find((stream) => stream.groupId === '333')!.streamId)?.kind).toBe('muted');

    await advance(test, 25 * MINUTE);
    expect(speeches(test, '111')).toBe(0); // not quiet for 30 minutes yet
    expect(skips(test, 'active')).toBeGreaterThan(0);

    await advance(test, 15 * MINUTE);
    expect(speeches(test, '111')).toBe(1);
    expect(test.logs.some((record) => record['level'] === 'info' && String(record['msg']).startsWith('proactive speech: resumed the quiet group 111'))).toBe(true);

    // Inside the hours and quiet again (its own speech counted as activity), but within the cooldown; then past 06:00.
    await advance(test, 11 * 60 * MINUTE);
    expect(speeches(test, '111')).toBe(1);
    expect(skips(test, 'cooldown')).toBeGreaterThan(0);
    expect(skips(test, 'outside its hours')).toBeGreaterThan(0);
    // The group in a rule's quiet hours never got one.
    expect(speeches(test, '222')).toBe(0);
    expect(skips(test, 'quiet hours of rule night')).toBeGreaterThan(0);
    // Nor the muted one.
    expect(speeches(test, '333')).toBe(0);
    expect(skips(test, 'the chat is muted')).toBeGreaterThan(0);
    // Nor the one whose rule switches the plugin off.
    expect(speeches(test, '444')).toBe(0);
    expect(skips(test, 'a rule switches the plugin off here')).toBeGreaterThan(0);
  });

  it('[issue 18.5] the cooldown is kept across a restart of the plugin', async () => {
    const test = await start({
      script: script(),
      botConfig: { bot: { timezone: 'UTC' } },
      pluginConfigs: {
        neo_default_chatter: NDFC,
        proactive_speech: proactiveConfig({ enabled: 'true', quiet_minutes: '30', hours: '["00:00-23:59"]', cooldown_minutes: '240', check_every_seconds: '300' }),
      },
    });
    await test.adapter.send('有人吗', { group: '111', mentionsBot: true });
    const received = test.clock.now();
    await advance(test, 40 * MINUTE);
    expect(speeches(test, '111')).toBe(1);
    // The bot's own (proactive) message counts as the group's last activity.
    const [group] = test.host.chat.streams.listStreams({ chatType: 'group' });
    expect(group).toMatchObject({ groupId: '111', chatType: 'group', platform: 'test' });
    expect(group!.lastActiveAt).toBeGreaterThanOrEqual(received + 30 * MINUTE);
    expect(test.host.chat.streams.listStreams({ chatType: 'private' })).toEqual([]);
    expect(test.host.chat.streams.listStreams({ activeSince: test.clock.now() + 1 })).toEqual([]);
    // The cooldown is in the plugin's data folder, read again by the reloaded plugin.
    const saved = JSON.parse(readFileSync(join(test.host.info.dataDir, 'plugins', 'proactive_speech', 'last-speech.json'), 'utf8')) as Record<string, number>;
    expect(Object.keys(saved)).toEqual([group!.streamId]);
    await test.host.plugins.reload('proactive_speech');
    await advance(test, 3 * 60 * MINUTE);
    expect(speeches(test, '111')).toBe(1);
    expect(skips(test, 'cooldown')).toBeGreaterThan(0);
    await advance(test, 90 * MINUTE); // 240 minutes after the first
    expect(speeches(test, '111')).toBe(2);
  });

  it('[issue 18.5] a group with recent activity is left alone', async () => {
    const test = await start({
      script: script(),
      botConfig: { bot: { timezone: 'UTC' } },
      pluginConfigs: {
        neo_default_chatter: NDFC,
        proactive_speech: proactiveConfig({ enabled: 'true', quiet_minutes: '30', hours: '["00:00-23:59"]', check_every_seconds: '300' }),
      },
    });
    for (let round = 0; round < 6; round += 1) {
      await test.adapter.send(`第 ${round} 句`, { group: '111' });
      await advance(test, 20 * MINUTE);
    }
    expect(speeches(test, '111')).toBe(0);
    expect(skips(test, 'active')).toBeGreaterThan(0);
  });

  it('[issue 18.5] off by default: no proactive speech without enabled = true', async () => {
    const test = await start({ script: script(), botConfig: { bot: { timezone: 'Asia/Shanghai' } }, pluginConfigs: { neo_default_chatter: NDFC } });
    await test.adapter.send('有人吗', { group: '111', mentionsBot: true });
    await advance(test, 4 * 60 * MINUTE); // 08:00 to 12:00 local: inside the default hours, quiet past 120 minutes
    expect(test.adapter.texts()).toEqual(['收到']);
    // Its generated config.toml says enabled = false, so the host does not load it.
    expect(test.logs.some((record) => record['id'] === 'proactive_speech' && record['msg'] === '工具插件已在自身配置中关闭')).toBe(true);
    expect(test.host.plugins.get('proactive_speech')).toBeUndefined();
    expect(skips(test, '')).toBe(0);
  });

  it('[issue 18.5] a spent daily token budget of its task: no proactive speech', async () => {
    const test = await start({
      script: script({ promptTokens: 400, completionTokens: 100 }),
      modelsConfig: { tasks: { actor: { models: [], daily_token_budget: 500 } } },
      botConfig: { bot: { timezone: 'UTC' } },
      pluginConfigs: {
        neo_default_chatter: NDFC,
        proactive_speech: proactiveConfig({ enabled: 'true', quiet_minutes: '30', hours: '["00:00-23:59"]', check_every_seconds: '300' }),
      },
    });
    await test.adapter.send('有人吗', { group: '111', mentionsBot: true });
    await test.settle(0);
    expect(test.adapter.texts()).toEqual(['收到']);
    expect(test.host.chat.runtime.budgetLeft('actor')).toBe(0);
    expect(test.host.chat.runtime.budgetLeft('no_such_task')).toBeUndefined();
    await advance(test, 2 * 60 * MINUTE);
    expect(speeches(test, '111')).toBe(0);
    expect(skips(test, 'budget is spent')).toBeGreaterThan(0);
  });
});

describe('proactive_speech config', () => {
  it('[issue 18.5] hours are "HH:MM-HH:MM" ranges, wrapping past midnight; a bad one is named by its path', () => {
    const at = (hour: number) => Date.UTC(2026, 0, 1, hour);
    expect(withinHours(['22:00-02:00'], at(23), 'UTC')).toBe(true);
    expect(withinHours(['22:00-02:00'], at(1), 'UTC')).toBe(true);
    expect(withinHours(['22:00-02:00'], at(12), 'UTC')).toBe(false);
    expect(withinHours(['09:00-22:00'], at(22), 'UTC')).toBe(false);
    expect(ProactiveSpeechConfig.parse({})).toMatchObject({ enabled: false, quiet_minutes: 120, hours: ['09:00-22:00'], cooldown_minutes: 240, check_every_seconds: 300, groups: [], task_name: 'actor' });
    const bad = ProactiveSpeechConfig.safeParse({ hours: ['9-22'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['hours', 0], message: expect.stringContaining('"HH:MM-HH:MM"') });
  });
});

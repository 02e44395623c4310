import { describe, expect, it } from 'vitest';
import { useTestHosts } from '../../support/ndfc.js';

// Issue 18 items 2-3: a bot.toml [[rules]] entry with quiet = true silences its chats in its
// hours like a mute: messages stored as read, never answered; owners' commands still run.

const OWNER = '20001';
const MEMBER = '10001';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('[issue 18] quiet hours of a rule', () => {
  const start = useTestHosts();

  it('[issue 18] a quiet rule’s groups are silent inside its hours (owners’ commands run, one info line; a new chat and one idle out of memory too) and answered after them; other chats are not', async () => {
    // The manual clock starts at 2026-01-01 00:00 UTC, ten minutes before 00:10-07:00.
    const test = await start({
      botConfig: { bot: { timezone: 'UTC' }, permissions: { owners: { test: [OWNER] } }, rules: [{ name: 'night', groups: ['600', '602'], hours: ['00:10-07:00'], quiet: true }] },
    });
    const early = await test.adapter.send('@Bot 还早', { user: MEMBER, group: '600', mentionsBot: true });
    expect(early).toMatchObject({ status: 'delivered' });
    await test.settle(20_000);
    const answeredBefore = test.adapter.texts().length;
    const callsBefore = test.model.calls.length;
    expect(answeredBefore).toBeGreaterThan(0);
    await test.settle(10 * MINUTE);
    const night = await test.adapter.send('@Bot 半夜好', { user: MEMBER, group: '600', mentionsBot: true });
    expect(night).toMatchObject({ status: 'stopped', reason: 'quiet hours (rule night)' });
    const streamId = night.status === 'stopped' ? night.message!.streamId : '';
    expect(test.host.chat.runtime.silenceOf(streamId)).toEqual({ kind: 'quiet_hours', rule: 'night' });
    expect(await test.adapter.send('@Bot 还在吗', { user: MEMBER, group: '600', mentionsBot: true })).toMatchObject({ status: 'stopped' });
    await test.adapter.send('/status', { user: OWNER, group: '600' });
    await test.settle(20_000);
    expect(test.adapter.texts()).toHaveLength(answeredBefore + 1);
    expect(test.adapter.texts().at(-1)).toContain('这里正处在规则 night 的安静时段');
    expect(test.model.calls).toHaveLength(callsBefore);
    expect(test.host.chat.database.messages.unread(streamId)).toEqual([]);
    expect(test.logs.filter((record) => /quiet hours of rule night/.test(String(record['msg'])) && record['level'] === 'info')).toHaveLength(1);

    // /unmute there says it was not muted, and that the quiet hours still hold.
    await test.adapter.send('/unmute', { user: OWNER, group: '600' });
    await test.settle(1_000);
    expect(test.adapter.texts().at(-1)).toBe('本群没有被禁言');

    // Another group is answered.
    expect(await test.adapter.send('@Bot 别的群', { user: MEMBER, group: '601', mentionsBot: true })).toMatchObject({ status: 'delivered' });
    // A chat the bot has never seen is silent from its first message (its stream is not stored yet).
    expect(await test.adapter.send('@Bot 新群', { user: MEMBER, group: '602', mentionsBot: true })).toMatchObject({ status: 'stopped', reason: 'quiet hours (rule night)' });

    // An hour later the quiet group has left memory (idle_evict_seconds 1800): still silent, for
    // the gate and for runtime.silenceOf (what proactive speech asks).
    await test.settle(20_000);
    const callsElsewhere = test.model.calls.length;
    await test.settle(HOUR);
    expect(test.host.chat.runtime.streams.getStream(streamId)).toBeUndefined();
    expect(test.host.chat.runtime.silenceOf(streamId)).toEqual({ kind: 'quiet_hours', rule: 'night' });
    expect(await test.adapter.send('@Bot 一小时后', { user: MEMBER, group: '600', mentionsBot: true })).toMatchObject({ status: 'stopped', reason: 'quiet hours (rule night)' });
    await test.settle(20_000);
    expect(test.model.calls).toHaveLength(callsElsewhere);

    await test.settle(7 * HOUR);
    expect(test.host.chat.runtime.silenceOf(streamId)).toBeUndefined();
    expect(await test.adapter.send('@Bot 早上好', { user: MEMBER, group: '600', mentionsBot: true })).toMatchObject({ status: 'delivered' });
  });
});

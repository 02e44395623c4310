import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatMutes } from '../../../src/chat/silence/chat-mutes.js';
import { createSilenceGate } from '../../../src/chat/silence/silence-gate.js';
import { silenceOf } from '../../../src/chat/silence/silence-of.js';
import type { ActiveChatRule } from '../../../src/chat/rules/active-chat-rule.js';
import type { Message } from '../../../src/chat/message.js';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../../src/kernel/time/manual-clock.js';
import { openDatabase } from '../../../src/storage/open-database.js';
import { MAX_MUTE_MS, MuteDurationSchema, parseMuteDuration } from '../../../src/plugins/built_in/owner-commands/mute-duration.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('[issue 18.2] /mute durations', () => {
  it('reads 30m, 2h, 1d, 90s, 1h30m and Chinese units; refuses words, bare numbers, 0 and more than 30 days', () => {
    expect(parseMuteDuration('30m')).toBe(30 * MINUTE);
    expect(parseMuteDuration('2h')).toBe(2 * HOUR);
    expect(parseMuteDuration('1d')).toBe(24 * HOUR);
    expect(parseMuteDuration('90s')).toBe(90_000);
    expect(parseMuteDuration('1h30m')).toBe(90 * MINUTE);
    expect(parseMuteDuration('1.5H')).toBe(90 * MINUTE);
    expect(parseMuteDuration('30分钟')).toBe(30 * MINUTE);
    expect(parseMuteDuration('1小时30分')).toBe(90 * MINUTE);
    expect(parseMuteDuration('2天')).toBe(48 * HOUR);
    expect(parseMuteDuration('45秒')).toBe(45_000);
    for (const bad of ['', 'soon', '30', 'm30', '1h x', '1hh']) expect(parseMuteDuration(bad)).toBeUndefined();
    expect(MuteDurationSchema.parse('30d')).toBe(MAX_MUTE_MS);
    expect(MuteDurationSchema.safeParse('31d').error?.issues[0]?.message).toBe('最长 30 天');
    expect(MuteDurationSchema.safeParse('0m').error?.issues[0]?.message).toBe('时长要大于 0');
    expect(MuteDurationSchema.safeParse('soon').error?.issues[0]?.message).toMatch(/不是时长/);
  });
});

describe('[issue 18.2] persisted mutes', () => {
  let work: string | undefined;
  afterEach(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
    work = undefined;
  });

  it('a mute is stored in chat_mutes and read back after the database is opened again; an ended one is ignored and deleted', async () => {
    mkdirSync(join(process.cwd(), '.moonglass-test'), { recursive: true });
    work = mkdtempSync(join(process.cwd(), '.moonglass-test', 'mutes-'));
    const file = join(work, 'moonglass.db');
    const clock = new ManualClock(1_000_000);
    const { logger, records } = createMemoryLogger();
    let database = openDatabase({ file, logger });
    const first = new ChatMutes({ repository: () => database.chatMutes, clock, logger });
    first.mute('s1', clock.now() + HOUR, 'u9');
    first.mute('s2', clock.now() + 2 * HOUR, null);
    expect(records.filter((record) => String(record['msg']).startsWith('chat s1 muted until'))).toHaveLength(1);
    database.close();

    database = openDatabase({ file, logger });
    const second = new ChatMutes({ repository: () => database.chatMutes, clock, logger });
    expect(second.activeMute('s1')).toMatchObject({ streamId: 's1', untilMs: 1_000_000 + HOUR, mutedBy: 'u9' });
    // Asking about a later moment does not end it now.
    expect(second.activeMute('s1', clock.now() + 2 * HOUR)).toBeUndefined();
    expect(second.activeMute('s1')).toBeDefined();
    await clock.advance(HOUR);
    expect(second.activeMute('s1')).toBeUndefined();
    expect(database.chatMutes.get('s1')).toBeUndefined();
    expect(second.list().map((record) => record.streamId)).toEqual(['s2']);
    expect(second.unmute('s2')).toBe(true);
    expect(second.unmute('s2')).toBe(false);
    expect(database.chatMutes.listActive(0)).toEqual([]);
    database.close();
  });
});

describe('[issue 18.2] silenceOf and the silence gate', () => {
  const rule = (quiet: boolean): ActiveChatRule => ({ name: 'night', index: 0, frequency: 1, persona: {}, toolsOff: [], pluginsOff: [], quiet });

  function mutesInMemory(clock: ManualClock) {
    const database = openDatabase({ file: ':memory:', logger: createMemoryLogger().logger });
    return { database, mutes: new ChatMutes({ repository: () => database.chatMutes, clock, logger: createMemoryLogger().logger }) };
  }

  it('a mute comes first, then the quiet hours of the rule that applies; a rule without quiet is no silence', () => {
    const clock = new ManualClock(0);
    const { database, mutes } = mutesInMemory(clock);
    let current: ActiveChatRule | undefined = rule(true);
    const sources = { mutes, ruleFor: () => current };
    expect(silenceOf(sources, 's', 0)).toEqual({ kind: 'quiet_hours', rule: 'night' });
    mutes.mute('s', HOUR, 'owner');
    expect(silenceOf(sources, 's', 0)).toEqual({ kind: 'muted', until: HOUR, by: 'owner' });
    current = rule(false);
    expect(silenceOf(sources, 's', HOUR)).toBeUndefined();
    current = undefined;
    expect(silenceOf(sources, 'other', 0)).toBeUndefined();
    database.close();
  });

  it('the gate takes every message of a silent chat except what letThrough allows, with one info line per stretch of quiet hours', async () => {
    const clock = new ManualClock(0);
    const { logger, records } = createMemoryLogger();
    let silence: ReturnType<Parameters<typeof createSilenceGate>[0]['silenceOf']> = { kind: 'quiet_hours', rule: 'night' };
    const gate = createSilenceGate({ silenceOf: () => silence, letThrough: (message) => message.content === '/status', clock, logger });
    expect(gate.order).toBe(150);
    const message = (content: string) => ({ streamId: 's', content }) as Message;
    expect(await gate.check(message('hi'))).toEqual({ pass: false, reason: 'quiet hours (rule night)' });
    expect(await gate.check(message('again'))).toMatchObject({ pass: false });
    expect(await gate.check(message('/status'))).toEqual({ pass: true });
    expect(records.filter((record) => String(record['msg']).includes('quiet hours of rule night'))).toHaveLength(1);
    silence = undefined;
    expect(await gate.check(message('day'))).toEqual({ pass: true });
    expect(gate.tracked()).toBe(0);
    silence = { kind: 'muted', until: HOUR, by: null };
    expect(await gate.check(message('muted'))).toEqual({ pass: false, reason: `the chat is muted until ${new Date(HOUR).toISOString()}` });
  });
});

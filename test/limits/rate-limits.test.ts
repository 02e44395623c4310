import { describe, expect, it } from 'vitest';
import { createRateLimitGate } from '../../src/chat/limits/rate-limit-gate.js';
import { SlidingWindowLimiter } from '../../src/chat/limits/sliding-window-limiter.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import { useTestHosts } from '../support/ndfc.js';

// Issue 18 item 4: bot.toml [limits] per_user / per_chat, a sliding window on the host's clock.
// A message past the limit is stored as read (no chatter answers it) with one debug line per
// user per window; the next window answers again.

const RATE_LIMIT_LINE = /^rate limit: /;

/** The <new_messages> blocks of every prompt the model got: what a run answered (history aside). */
function newMessagesOf(calls: readonly { payloads: readonly { content?: unknown }[] }[]): string {
  const text = calls.flatMap((call) => call.payloads.map((payload) => String(payload.content ?? ''))).join('\n');
  return [...text.matchAll(/<new_messages>([\s\S]*?)<\/new_messages>/g)].map((match) => match[1]).join('\n');
}

describe('rate limits', () => {
  const start = useTestHosts();

  it('[limits] per_user 3 per minute: of five quick messages the first three reach the chatter, the rest are stored unanswered with one debug line; a minute later it answers again', async () => {
    const test = await start({ botConfig: { limits: { per_user: { replies: 3, window_seconds: 60 } } } });
    const outcomes = [];
    for (const text of ['一', '二', '三', '四', '五']) outcomes.push(await test.adapter.send(text));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['delivered', 'delivered', 'delivered', 'stopped', 'stopped']);
    expect(outcomes[3]).toMatchObject({ reason: 'rate limit per user: 3 per 60 s' });
    await test.settle(20_000);
    const streamId = outcomes[0]!.status === 'delivered' ? outcomes[0]!.message.streamId : '';
    // Stored, and read: no run will pick them up, now or after a restart.
    expect(test.host.chat.database.messages.history(streamId, 50).map((message) => message.content)).toEqual(expect.arrayContaining(['四', '五']));
    expect(test.host.chat.database.messages.unread(streamId)).toEqual([]);
    // The chatter answered the first three; the others are only history (read) to it.
    const asked = newMessagesOf(test.model.calls);
    expect(asked).toContain('三');
    expect(asked).not.toContain('四');
    expect(asked).not.toContain('五');
    expect(test.adapter.sent.length).toBeGreaterThan(0);
    // One line for the user for this window, not one per refused message.
    expect(test.logs.filter((record) => RATE_LIMIT_LINE.test(String(record['msg'])))).toHaveLength(1);
    // The gate's own line is the only one: ingress writes none for a quiet verdict.
    expect(test.logs.filter((record) => String(record['msg']).startsWith('a message was not passed to the chatter'))).toEqual([]);

    // The same user in another chat is the same user: still limited.
    expect(await test.adapter.send('群里说一句', { group: '7001', mentionsBot: true })).toMatchObject({ status: 'stopped' });
    // Another user is not.
    expect((await test.adapter.send('我是别人', { user: '10002' })).status).toBe('delivered');

    await test.settle(60_000);
    const sentBefore = test.adapter.sent.length;
    expect((await test.adapter.send('六')).status).toBe('delivered');
    await test.settle(20_000);
    expect(newMessagesOf(test.model.calls)).toContain('六');
    expect(test.adapter.sent.length).toBeGreaterThan(sentBefore);
  });

  it('[limits] per_chat 2 per minute counts everyone in one group; other chats are not affected; owners are never limited', async () => {
    const test = await start({
      botConfig: { limits: { per_chat: { replies: 2, window_seconds: 60 } }, permissions: { owners: { test: ['90000'] } } },
    });
    const inGroup = [];
    for (const user of ['10001', '10002', '10003', '10004']) inGroup.push((await test.adapter.send(`来自 ${user}`, { user, group: '8001' })).status);
    expect(inGroup).toEqual(['delivered', 'delivered', 'stopped', 'stopped']);
    expect((await test.adapter.send('主人来了', { user: '90000', group: '8001' })).status).toBe('delivered');
    expect((await test.adapter.send('别的群', { user: '10003', group: '8002' })).status).toBe('delivered');
    expect(test.logs.filter((record) => RATE_LIMIT_LINE.test(String(record['msg'])))).toHaveLength(1);
    await test.settle(61_000);
    expect((await test.adapter.send('一分钟后', { user: '10004', group: '8001' })).status).toBe('delivered');
  });

  it('[limits] without [limits] no gate is added and every message goes on', async () => {
    const test = await start();
    const statuses = [];
    for (let index = 0; index < 10; index += 1) statuses.push((await test.adapter.send(`消息 ${index}`)).status);
    expect(statuses.every((status) => status === 'delivered')).toBe(true);
    expect(test.host.chat.gates.names()).not.toContain('rate limit');
  });

  it('[limits] memory stays bounded: 5000 users each sending twice are forgotten once their window has passed', async () => {
    const clock = new ManualClock();
    const { logger, records } = createMemoryLogger('debug');
    const gate = createRateLimitGate({ limits: { per_user: { replies: 1, window_seconds: 10 }, per_chat: { replies: 1000, window_seconds: 10 } }, owners: {}, clock, logger })!;
    const message = (user: string, stream: string) => ({ platform: 'qq', senderId: user, streamId: stream }) as Parameters<typeof gate.check>[0];
    for (let user = 0; user < 5_000; user += 1) {
      expect(await gate.check(message(String(user), `s${user % 50}`))).toEqual({ pass: true });
      // The second message of each user is refused; the log line is said once per user.
      expect((await gate.check(message(String(user), `s${user % 50}`))).pass).toBe(false);
      if (user % 1000 === 999) await clock.advance(0);
    }
    expect(records.filter((record) => RATE_LIMIT_LINE.test(String(record['msg'])))).toHaveLength(5_000);
    expect(gate.tracked()).toBeGreaterThan(5_000);
    await clock.advance(10_001);
    expect(await gate.check(message('new user', 's0'))).toEqual({ pass: true });
    // Only the newcomer and its chat are held (the log marks are swept once they came due).
    expect(gate.tracked()).toBe(2);
  });

  it('[limits] the sliding window: room comes back as each counted time leaves the window', () => {
    const limiter = new SlidingWindowLimiter(2, 1000);
    limiter.take('a', 0);
    limiter.take('a', 400);
    expect(limiter.hasRoom('a', 999)).toBe(false);
    expect(limiter.reopensAt('a', 999)).toBe(1000);
    expect(limiter.hasRoom('a', 1000)).toBe(true);
    limiter.take('a', 1000);
    expect(limiter.hasRoom('a', 1399)).toBe(false);
    expect(limiter.hasRoom('a', 1400)).toBe(true);
  });
});

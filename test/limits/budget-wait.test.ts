import { afterEach, describe, expect, it } from 'vitest';
import { settleUntil } from '../support/settle-until.js';
import { Failure, Success } from '../../src/chatter/chatter-result.js';
import type { ChatterGenerator } from '../../src/chatter/chatter-run.js';
import { StreamDriver } from '../../src/chatter/stream-driver.js';
import { SequenceRandom } from '../../src/kernel/time/random.js';
import { createTestBus } from '../support/bus.js';
import { FakeOpenAiServer } from '../llm/support/fake-openai-server.js';
import { sendText500 } from './support/send-text-500.js';
import { useTestHosts } from '../support/ndfc.js';

// Issue 18 item 4: a stream whose run failed because the task's daily token budget is spent
// waits until the budget's next local day (the error's retryAt) instead of retrying through
// the day: no model request, no new failure line, new messages stay unread too; past local
// midnight the unread messages are answered without anyone writing again. Real parts: an
// OpenAI-compatible server on loopback, the host's SQLite model-call log, NDFC, the outbox,
// the host's manual clock.

const NDFC = { neo_default_chatter: '[plugin]\ntyping_delay_per_char = 0\ntyping_delay_max_seconds = 0\n' };
const HOUR = 3_600_000;

describe('a spent budget waits for its next day', () => {
  const start = useTestHosts();
  const servers: FakeOpenAiServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('[issue 18.4] after the spent failure the stream waits until local midnight: an hour on, no model request and no new failure line; past midnight the unread messages are answered', async () => {
    const server = await FakeOpenAiServer.start();
    servers.push(server);
    server.reply(sendText500('好的'));
    const test = await start({
      modelsConfig: {
        providers: { local: { base_url: server.baseUrl, api_key: '', timeout_s: 10, max_retries: 0 } },
        models: { main: { provider: 'local', model: 'test-model' } },
        tasks: { actor: { models: ['main'], daily_token_budget: 500 } },
      },
      // A short backoff: without the wait, an hour would hold a dozen retries.
      botConfig: { bot: { timezone: 'Asia/Shanghai' }, chat: { failure_retry_seconds: 5, failure_retry_max_seconds: 300 } },
      pluginConfigs: NDFC,
    });
    const toUser = () => test.adapter.sent.filter((delivery) => delivery.userId === '10001');
    const failures = () => test.logs.filter((record) => String(record['msg']).startsWith('the run failed'));

    await test.adapter.send('你好');
    await settleUntil(test, () => toUser().length === 1, 'the first reply');
    const second = await test.adapter.send('还在吗');
    const streamId = second.status === 'delivered' ? second.message.streamId : '';
    await settleUntil(test, () => failures().length === 1, 'the spent failure');
    await test.settle(0);
    expect(server.requests).toHaveLength(1);

    // The clock starts at 08:00 in Shanghai (00:00 UTC); the budget's day ends at 16:00 UTC.
    const [failed] = failures();
    expect(failed?.['msg']).toBe('the run failed; its 1 unread message(s) and any new ones wait until 2026-01-01T16:00:00.000Z, when trying again can succeed');
    expect(failed?.['retry_at']).toBe('2026-01-01T16:00:00.000Z');
    expect(String(failed?.['reason'])).toMatch(/daily token budget of task actor spent: 500 of 500 tokens today \(2026-01-01\); it resets at 00:00 Asia\/Shanghai/);

    // An hour on, with a new message in it: nothing is asked, nothing more is logged, both stay unread.
    await test.settle(10 * 60_000);
    await test.adapter.send('喂');
    await test.settle(HOUR - 10 * 60_000);
    expect(server.requests).toHaveLength(1);
    expect(failures()).toHaveLength(1);
    expect(test.host.chat.database.messages.unread(streamId).map((message) => message.content)).toEqual(['还在吗', '喂']);

    // Just before midnight still nothing; past it the waiting messages are answered, with no new message.
    await test.clock.advance(16 * HOUR - HOUR - 1_000 - 10 * 60_000);
    await test.settle(0);
    expect(server.requests).toHaveLength(1);
    await test.clock.advance(2_000 + 10 * 60_000);
    await settleUntil(test, () => toUser().length === 2, 'the answer on the next day');
    expect(server.requests).toHaveLength(2);
    const asked = JSON.stringify(server.requests[1]!.body['messages']);
    for (const text of ['还在吗', '喂']) expect(asked).toContain(text);
    await settleUntil(test, () => test.host.chat.database.messages.unread(streamId).length === 0, 'the messages read');
    expect(failures()).toHaveLength(1);
  });

  it('[issue 18.4] any failure whose error (or its cause) carries retryAt waits until then, also for new messages; other failures back off as before', async () => {
    const { bus, clock, logger, records } = createTestBus();
    let unread = 0;
    let runs = 0;
    const results: (() => Failure | Success)[] = [
      () => new Failure('wrapped', new Error('the chatter wrapped it', { cause: Object.assign(new Error('not yet'), { retryAt: clock.now() + 60_000 }) })),
      () => new Failure('plain'),
    ];
    const driver = new StreamDriver({
      streamId: 's1',
      chatterName: 'test_chatter',
      createChatter: () => ({
        async *execute(): ChatterGenerator {
          runs += 1;
          const next = results.shift() ?? (() => new Success());
          const result = next();
          if (result.kind === 'success') unread = 0;
          yield result;
        },
      }),
      unreadCount: () => unread,
      bus,
      clock,
      random: new SequenceRandom([0.99]),
      logger,
      timing: { messageBufferMs: 0, failureRetryMs: 5_000, failureRetryMaxMs: 20_000 },
    });
    const message = async () => {
      unread += 1;
      driver.notifyMessage({ direct: true });
      await clock.advance(0);
    };
    await message();
    expect(runs).toBe(1);
    await clock.advance(30_000);
    await message(); // waits with the first
    await clock.advance(29_999);
    expect(runs).toBe(1);
    expect(records.filter((record) => String(record['msg']).startsWith('the run failed'))).toHaveLength(1);
    await clock.advance(1);
    expect(runs).toBe(2); // at retryAt; this one fails plainly: a new message goes at once again
    await message();
    expect(runs).toBe(3);
    expect(unread).toBe(0);
    await driver.close(0);
  });
});

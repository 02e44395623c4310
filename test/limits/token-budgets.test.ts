import { afterEach, describe, expect, it } from 'vitest';
import { settleUntil } from '../support/settle-until.js';
import { localDayOf } from '../../src/kernel/time/local-day.js';
import { limitsOf } from '../../src/app/wire-limits.js';
import { FakeOpenAiServer } from '../llm/support/fake-openai-server.js';
import { sendText500 } from './support/send-text-500.js';
import { useConsoles } from '../support/admin.js';
import { useTestHosts } from '../support/ndfc.js';

// Issue 18 item 4: models.toml [tasks.<name>] daily_token_budget, counted per local day (the
// bot's time zone, on the manual clock) from the usage the provider reports. Real parts: an
// OpenAI-compatible server on loopback, the host's SQLite model-call log, NDFC, the outbox.

const OWNER = '90000';
const NDFC = { neo_default_chatter: '[plugin]\ntyping_delay_per_char = 0\ntyping_delay_max_seconds = 0\n' };

function hostOptions(server: FakeOpenAiServer, backup?: FakeOpenAiServer) {
  return {
    modelsConfig: {
      providers: {
        local: { base_url: server.baseUrl, api_key: '', timeout_s: 10, max_retries: 0 },
        ...(backup === undefined ? {} : { spare: { base_url: backup.baseUrl, api_key: '', timeout_s: 10, max_retries: 0 } }),
      },
      models: { main: { provider: 'local', model: 'test-model' }, ...(backup === undefined ? {} : { backup: { provider: 'spare', model: 'test-model' } }) },
      tasks: { actor: { models: backup === undefined ? ['main'] : ['main', 'backup'], daily_token_budget: 500 } },
    },
    botConfig: { bot: { timezone: 'Asia/Shanghai' }, permissions: { owners: { test: [OWNER] } }, chat: { failure_retry_seconds: 5, failure_retry_max_seconds: 300 } },
    pluginConfigs: NDFC,
  };
}

describe('daily token budgets', () => {
  const start = useTestHosts();
  const startConsole = useConsoles();
  const servers: FakeOpenAiServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  async function model(): Promise<FakeOpenAiServer> {
    const server = await FakeOpenAiServer.start();
    servers.push(server);
    server.reply(sendText500('好的'));
    return server;
  }

  it('[limits] a budget of 500 stops the task once the provider reported 500 tokens: no HTTP call, Failure, messages unread, one owner notice; the next local day it answers them', async () => {
    const server = await model();
    const backup = await model(); // the task's second model: a spent budget is no reason to try it
    const test = await start(hostOptions(server, backup));
    const toUser = () => test.adapter.sent.filter((delivery) => delivery.userId === '10001');
    const toOwner = () => test.adapter.sent.filter((delivery) => delivery.userId === OWNER);

    await test.adapter.send('你好');
    await settleUntil(test, () => toUser().length === 1, 'the first reply');
    expect(toUser()[0]!.content).toBe('好的');
    expect(limitsOf(test.host)!.budgets.today()).toEqual([{ task: 'actor', tokens: 500, budget: 500, share: 1 }]);

    const second = await test.adapter.send('还在吗');
    const streamId = second.status === 'delivered' ? second.message.streamId : '';
    await settleUntil(test, () => toOwner().length === 1, 'the owner notice');
    await test.settle(0);
    expect(server.requests).toHaveLength(1); // refused before any HTTP call
    expect(backup.requests).toHaveLength(0);
    const failed = test.logs.find((record) => record['msg'] === 'the run failed; its 1 unread message(s) and any new ones wait until 2026-01-01T16:00:00.000Z, when trying again can succeed');
    expect(String(failed?.['reason'])).toMatch(/daily token budget of task actor spent: 500 of 500 tokens today \(2026-01-01\); it resets at 00:00 Asia\/Shanghai/);
    expect(test.host.chat.database.messages.unread(streamId).map((message) => message.content)).toEqual(['还在吗']);
    expect(toOwner()[0]).toMatchObject({ chatType: 'private', userId: OWNER });
    expect(toOwner()[0]!.content).toContain('任务 actor 已用 500 / 500 tokens');
    expect(test.logs.filter((record) => record['level'] === 'warn' && String(record['msg']).startsWith('daily token budget of task actor spent'))).toHaveLength(1);

    // More messages wait with it (the driver waits for the next day, no retries); the owner is told once.
    await test.adapter.send('喂');
    await test.settle(20 * 60_000);
    expect(server.requests).toHaveLength(1);
    expect(toOwner()).toHaveLength(1);
    expect(test.host.chat.database.messages.unread(streamId).map((message) => message.content)).toEqual(['还在吗', '喂']);

    // The clock started at 08:00 in Shanghai; 00:00 there is 16 hours on. The stream's wait ends then and answers what waited.
    await test.clock.advance(16 * 3_600_000 - 20 * 60_000 - 1_000);
    expect(server.requests).toHaveLength(1);
    await test.clock.advance(2_000);
    await settleUntil(test, () => toUser().length === 2, 'the answer on the next day');
    expect(server.requests).toHaveLength(2);
    expect(backup.requests).toHaveLength(0);
    const asked = JSON.stringify(server.requests[1]!.body['messages']);
    for (const text of ['还在吗', '喂']) expect(asked).toContain(text);
    await settleUntil(test, () => test.host.chat.database.messages.unread(streamId).length === 0, 'the messages read');
    expect(limitsOf(test.host)!.budgets.today()).toEqual([{ task: 'actor', tokens: 500, budget: 500, share: 1 }]);
  });

  it('[limits] the local day of the budget: 00:00 to 00:00 in the bot time zone, also across a daylight-saving change', () => {
    const shanghai = localDayOf(Date.UTC(2026, 0, 1, 17, 30), 'Asia/Shanghai'); // 01:30 on 2 January there
    expect(shanghai).toEqual({ key: '2026-01-02', start: Date.UTC(2026, 0, 1, 16), end: Date.UTC(2026, 0, 2, 16) });
    const newYork = localDayOf(Date.UTC(2026, 2, 8, 12), 'America/New_York'); // clocks go forward that night
    expect(newYork).toEqual({ key: '2026-03-08', start: Date.UTC(2026, 2, 8, 5), end: Date.UTC(2026, 2, 9, 4) });
  });

  it('[limits] a task without a budget is never refused, and the Usage API shows every task today with the share of its budget', async () => {
    const server = await model();
    const options = hostOptions(server);
    const { test, api } = await startConsole({ ...options, modelsConfig: { ...options.modelsConfig, tasks: { actor: { models: ['main'], daily_token_budget: 2000 }, utils: { models: ['main'] } } } });
    await test.adapter.send('你好');
    await settleUntil(test, () => test.adapter.sent.length === 1, 'the reply');
    const request = test.host.chat.llm.createRequest({ taskName: 'utils', requestName: 'probe' });
    request.addPayload({ role: 'user', content: 'x' });
    for (let index = 0; index < 5; index += 1) await request.send();
    const usage = (await (await api('/usage')).json()) as { today: { day: string; timeZone: string; tasks: unknown[] } };
    expect(usage.today).toEqual({
      day: '2026-01-01',
      timeZone: 'Asia/Shanghai',
      tasks: [
        { task: 'actor', tokens: 500, budget: 2000, share: 0.25 },
        { task: 'utils', tokens: 2500, budget: null, share: null },
      ],
    });
  });
});

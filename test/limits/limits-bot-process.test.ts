import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completion, type FakeHandler, FakeOpenAiServer } from '../llm/support/fake-openai-server.js';
import { useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer } from '../support/onebot-peer.js';
import { storedRows } from '../support/stored-messages.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// Issue 18 item 4 through the real CLI: the host forks the OneBot adapter, a loopback peer
// connects like NapCat, and the model is an OpenAI-compatible server on loopback.

const USER = 42;
const OWNER = 7;
const NDFC_CONFIG = '[plugin]\ntyping_delay_per_char = 0\ntyping_delay_max_seconds = 0\n';

/** send_text(content) with the usage the provider reports. */
const sendText = (content: string, tokens = { prompt_tokens: 11, completion_tokens: 7 }): FakeHandler =>
  completion(
    { content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'send_text', arguments: JSON.stringify({ content }) } }] },
    'tool_calls',
    { ...tokens, total_tokens: tokens.prompt_tokens + tokens.completion_tokens },
  );

/** The text of a send_private_msg the bot made. */
const textOf = (params: Record<string, unknown>): string => {
  const message = params['message'];
  if (typeof message === 'string') return message;
  return (message as { type: string; data: Record<string, unknown> }[])
    .filter((segment) => segment.type === 'text')
    .map((segment) => String(segment.data['text']))
    .join('');
};

describe('limits and budgets, with real processes', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  const servers: FakeOpenAiServer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
    for (const server of servers.splice(0)) await server.close();
  });

  async function setUp(botToml: string, task: string) {
    const model = await FakeOpenAiServer.start();
    servers.push(model);
    const cwd = tempDir();
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), `[platform]\nadapter = "onebot_v11"\n[accounts]\nqq = "10000"\n${botToml}`);
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `[reverse]\nport = ${port}\n`);
    const writeModels = (budget: string) =>
      writeFileSync(
        join(cwd, 'config', 'models.toml'),
        `[providers.local]\nbase_url = "${model.baseUrl}"\napi_key = ""\ntimeout_s = 10\nmax_retries = 0\n\n[models.main]\nprovider = "local"\nmodel = "test-model"\n\n[tasks.actor]\nmodels = ["main"]\n${budget}`,
      );
    writeModels(task);
    const startBot = async () => {
      const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data', '--log-level', 'debug'], { cwd, pluginConfigs: { neo_default_chatter: NDFC_CONFIG } });
      await bot.waitForLog(/^ready in/);
      const napcat = new OneBotPeer({ selfId: '10000', waitTimeoutMs: 30_000 });
      peers.push(napcat);
      napcat.connectReverse({ url: `ws://127.0.0.1:${port}/onebot/v11/ws` });
      await napcat.waitForConnection();
      return { bot, napcat };
    };
    return { model, cwd, dataDir: join(cwd, 'data'), startBot, writeModels };
  }

  it('[limits] per_user 3 per minute: of five quick private messages the chatter sees the first three; all five are stored, none left unread; one rate-limit line', async () => {
    const { model, dataDir, startBot } = await setUp('[chat]\nmessage_buffer_seconds = 1\n[limits]\nper_user = { replies = 3, window_seconds = 60 }\n', '');
    model.reply(sendText('收到'));
    const { bot, napcat } = await startBot();
    for (const text of ['一', '二', '三', '四', '五']) napcat.pushPrivateMessage({ userId: USER, message: text });
    await napcat.waitForAction('send_private_msg');
    await until(() => storedRows(dataDir, "SELECT 1 FROM messages WHERE direction = 'inbound'").length === 5, { what: 'five stored messages' });
    await bot.waitForLog(/^rate limit: user 42 /);
    const asked = model.requests.map((request) => JSON.stringify(request.body['messages'])).join('\n');
    const newMessages = [...asked.matchAll(/<new_messages>(.*?)<\/new_messages>/g)].map((match) => match[1]).join('\n');
    expect(newMessages).toContain('三');
    expect(newMessages).not.toContain('四');
    expect(newMessages).not.toContain('五');
    await until(() => storedRows(dataDir, 'SELECT 1 FROM messages WHERE unread = 1').length === 0, { what: 'nothing unread' });
    expect(bot.logs.filter((record) => /^rate limit: /.test(String(record['msg'])))).toHaveLength(1);
    // The gate's line is the only one: ingress writes none of its own for a rate-limited message.
    expect(bot.logs.filter((record) => String(record['msg']).startsWith('a message was not passed to the chatter'))).toEqual([]);
    bot.child.kill('SIGTERM');
    await bot.exited;
  });

  it('[limits] a spent budget: the owner gets one private notice on QQ, the message waits unread; raised in models.toml and restarted, the bot answers it', async () => {
    const { model, dataDir, startBot, writeModels } = await setUp(
      `[chat]\nmessage_buffer_seconds = 0\nfailure_retry_seconds = 1\n[permissions]\nowners = { qq = ["${OWNER}"] }\n`,
      'daily_token_budget = 100\n',
    );
    model.reply(sendText('好的', { prompt_tokens: 80, completion_tokens: 40 }));
    const first = await startBot();
    first.napcat.pushPrivateMessage({ userId: USER, message: '你好' });
    await first.napcat.waitForAction('send_private_msg');
    first.napcat.pushPrivateMessage({ userId: USER, message: '还在吗' });
    const notice = await first.napcat.waitForAction('send_private_msg', 2);
    expect(notice.params['user_id']).toBe(OWNER);
    expect(textOf(notice.params)).toContain('任务 actor 已用 120 / 100 tokens');
    // The stream waits for the budget's next day (one line saying until when), not retrying every second.
    await first.bot.waitForLog(/^the run failed; its 1 unread message\(s\) and any new ones wait until \S+Z, when trying again can succeed$/);
    expect(model.requests).toHaveLength(1);
    expect(first.napcat.actions.filter((action) => action.action === 'send_private_msg')).toHaveLength(2);
    expect(storedRows(dataDir, "SELECT content FROM messages WHERE unread = 1")).toEqual([{ content: '还在吗' }]);
    first.bot.child.kill('SIGTERM');
    await first.bot.exited;

    // The old peer would reconnect to the new bot as the same account, and replace the new one.
    await first.napcat.close();
    writeModels('daily_token_budget = 1000\n');
    const second = await startBot();
    await second.napcat.waitForAction('send_private_msg');
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]!.body['messages'])).toContain('还在吗');
    const reply = second.napcat.actions.find((action) => action.action === 'send_private_msg')!;
    expect([reply.params['user_id'], textOf(reply.params)]).toEqual([USER, '好的']);
    await until(() => storedRows(dataDir, 'SELECT 1 FROM messages WHERE unread = 1').length === 0, { what: 'nothing unread' });
    second.bot.child.kill('SIGTERM');
    await second.bot.exited;
  }, 60_000);
});

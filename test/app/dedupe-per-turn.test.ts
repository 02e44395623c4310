import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completion, type FakeHandler, FakeOpenAiServer } from '../llm/support/fake-openai-server.js';
import { useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer } from '../support/onebot-peer.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// Issue 13 item 3 on the real CLI: the host forks the OneBot adapter, a loopback peer connects
// like NapCat, and the `actor` model is an OpenAI-compatible server on loopback that answers
// every user turn with send_text("好的") and every follow-up (the request that ends in the tool
// result) with pass_and_wait. Two private messages a turn apart both get "好的".

const USER = 42;
// Follow-ups after an action (enable_action_suspend off); replies are sent at once.
const NDFC_CONFIG = '[plugin]\nenable_action_suspend = false\ntyping_delay_per_char = 0\ntyping_delay_max_seconds = 0\n';

const toolCall = (name: string, args: Record<string, unknown>): FakeHandler =>
  completion({ content: '', tool_calls: [{ id: `call_${name}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, 'tool_calls');

/** send_text("好的") for a user turn; pass_and_wait for its follow-up. */
const okayThenWait: FakeHandler = (request, response) => {
  const last = (request.body['messages'] as { role: string }[]).at(-1);
  const answer = last?.role === 'tool' ? toolCall('pass_and_wait', {}) : toolCall('send_text', { content: '好的' });
  answer(request, response);
};

describe('the same send_text in two user turns, with real processes', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  const servers: FakeOpenAiServer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
    for (const server of servers.splice(0)) await server.close();
  });

  it('[app] [N-28] [issue 13] two private messages a turn apart both get "好的" delivered through send_private_msg', async () => {
    const model = await FakeOpenAiServer.start();
    servers.push(model);
    model.reply(okayThenWait);
    const cwd = tempDir();
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[platform]\nadapter = "onebot_v11"\n[accounts]\nqq = "10000"\n[chat]\nmessage_buffer_seconds = 0\n');
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `[reverse]\nport = ${port}\n`);
    writeFileSync(
      join(cwd, 'config', 'models.toml'),
      `[providers.local]\nbase_url = "${model.baseUrl}"\napi_key = ""\ntimeout_s = 10\nmax_retries = 0\n\n[models.main]\nprovider = "local"\nmodel = "test-model"\n\n[tasks.actor]\nmodels = ["main"]\n`,
    );
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data', '--log-level', 'debug'], { cwd, pluginConfigs: { neo_default_chatter: NDFC_CONFIG } });
    await bot.waitForLog(/^ready in/);

    const napcat = new OneBotPeer({ selfId: '10000', waitTimeoutMs: 30_000 });
    peers.push(napcat);
    napcat.connectReverse({ url: `ws://127.0.0.1:${port}/onebot/v11/ws` });
    await napcat.waitForConnection();

    napcat.pushPrivateMessage({ userId: USER, message: '帮我记一下' });
    await napcat.waitForAction('send_private_msg');
    // The turn ends: its follow-up (answered with pass_and_wait) has been asked.
    await model.receivedRequests(2);
    napcat.pushPrivateMessage({ userId: USER, message: '再记一条' });
    await napcat.waitForAction('send_private_msg', 2);
    await model.receivedRequests(4);

    const replies = napcat.actions.filter((action) => action.action === 'send_private_msg');
    const textOf = (params: Record<string, unknown>) => {
      const message = params['message'];
      if (typeof message === 'string') return message;
      return (message as { type: string; data: Record<string, unknown> }[])
        .filter((segment) => segment.type === 'text')
        .map((segment) => String(segment.data['text']))
        .join('');
    };
    expect(replies.map((reply) => [reply.params['user_id'], textOf(reply.params)])).toEqual([
      [USER, '好的'],
      [USER, '好的'],
    ]);
    // Each turn's request holds the new message; nothing was skipped as a duplicate.
    expect(JSON.stringify(model.requests[2]!.body['messages'])).toContain('再记一条');
    expect(JSON.stringify(model.requests.map((request) => request.body['messages']))).not.toContain('检测到重复工具调用');
    expect(bot.logs.some((record) => /duplicate/.test(String(record['msg'])))).toBe(false);

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  }, 90_000);
});

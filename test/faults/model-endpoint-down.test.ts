import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completion, type FakeHandler, FakeOpenAiServer } from '../llm/support/fake-openai-server.js';
import { useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { storedCount, storedMessages } from '../support/stored-messages.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// The real CLI (`npm start`) with the console adapter, talking to an OpenAI-compatible
// endpoint on loopback that is first unreachable or too slow, then healthy. The run fails,
// the message stays unread, the stream keeps going, and the retry answers it exactly once.

const sendText = (content: string): FakeHandler =>
  completion({ content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'send_text', arguments: JSON.stringify({ content }) } }] }, 'tool_calls');

/** A handler that answers after `ms` of real time (longer than the client's timeout). */
const slow = (ms: number, then: FakeHandler): FakeHandler => (request, response) => {
  const timer = setTimeout(() => then(request, response), ms);
  response.on('close', () => clearTimeout(timer));
};



describe('a model endpoint that is down or slow, with real processes', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const servers: FakeOpenAiServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  /** A bot whose `actor` model is at 127.0.0.1:`port`, one attempt of at most 2 s per request, retried after 1 s. */
  function startBot(port: number) {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'config'), { recursive: true });
    writeFileSync(
      join(cwd, 'config', 'models.toml'),
      `[providers.local]\nbase_url = "http://127.0.0.1:${port}/v1"\napi_key = ""\ntimeout_s = 2\nmax_retries = 0\n\n[models.main]\nprovider = "local"\nmodel = "test-model"\n\n[tasks.actor]\nmodels = ["main"]\n`,
    );
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[chat]\nmessage_buffer_seconds = 0\nfailure_retry_seconds = 1\n');
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data', '--log-level', 'debug'], {
      cwd,
      pluginConfigs: { neo_default_chatter: '[plugin]\ntyping_delay_per_char = 0\n' },
    });
    return { bot, cwd };
  }

  it('[fault] an endpoint that refuses connections gives Failure; once it is up, the retry answers the message once', async () => {
    const port = await freePort();
    const { bot, cwd } = startBot(port);
    await bot.waitForLog(/^ready in/);
    bot.child.stdin!.write('在吗\n');
    const failed = await bot.waitForLog(/^the run failed; its 1 unread message\(s\) are tried again in 1 s$/, 30_000);
    expect(String(failed['reason'])).toMatch(/network error/);

    const server = await FakeOpenAiServer.start(port);
    servers.push(server);
    server.reply(sendText('我在，刚才网络断了'));
    expect(await bot.waitForStdout(/^月璃> /, 30_000)).toBe('月璃> 我在，刚才网络断了');
    // The request that answered carried the message that failed.
    expect(JSON.stringify(server.requests[0]!.body['messages'])).toContain('在吗');

    // The reply is stored once the adapter confirms it; wait for that, so the order is fixed.
    await storedCount(join(cwd, 'data'), 2);
    // The stream keeps working: the next message is answered at once.
    bot.child.stdin!.write('好的\n');
    server.reply(sendText('嗯嗯'));
    expect(await bot.waitForStdout(/^月璃> 嗯嗯$/, 30_000)).toBe('月璃> 嗯嗯');
    bot.child.stdin!.end();
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(storedMessages(join(cwd, 'data'))).toEqual([
      { direction: 'inbound', content: '在吗' },
      { direction: 'outbound', content: '我在，刚才网络断了' },
      { direction: 'inbound', content: '好的' },
      { direction: 'outbound', content: '嗯嗯' },
    ]);
  });

  it('[fault] an endpoint slower than the timeout gives Failure; the retry answers the message once', async () => {
    const port = await freePort();
    const server = await FakeOpenAiServer.start(port);
    servers.push(server);
    server.reply(slow(5_000, sendText('迟到的回答')), sendText('准时的回答'));
    const { bot, cwd } = startBot(port);
    await bot.waitForLog(/^ready in/);
    bot.child.stdin!.write('你好\n');
    const failed = await bot.waitForLog(/^the run failed; its 1 unread message\(s\) are tried again in 1 s$/, 30_000);
    expect(String(failed['reason'])).toMatch(/no response within 2000 ms/);
    expect(await bot.waitForStdout(/^月璃> /, 30_000)).toBe('月璃> 准时的回答');
    bot.child.stdin!.end();
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(server.requests).toHaveLength(2);
    expect(bot.stdout.filter((line) => line.startsWith('月璃> '))).toEqual(['月璃> 准时的回答']);
    expect(storedMessages(join(cwd, 'data'))).toEqual([
      { direction: 'inbound', content: '你好' },
      { direction: 'outbound', content: '准时的回答' },
    ]);
  });
});

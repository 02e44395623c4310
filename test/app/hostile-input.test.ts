import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completion, FakeOpenAiServer, type FakeHandler } from '../llm/support/fake-openai-server.js';
import { type BotProcess, useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer, type PeerActionRequest } from '../support/onebot-peer.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// Issue 13 with real processes (the CLI host, its OneBot adapter process, a loopback peer
// like NapCat, the SQLite file): replies go back on the account a message came from (item 2),
// chat media cannot reach private places (7), secrets stay out of the output (8), inbound
// text is bounded (9), and a peer sending junk does not flood the log (10).

const ARGS = ['start', '--config-dir', 'config', '--data-dir', 'data', '--log-level', 'debug'];
const FAST_NDFC = '[plugin]\ntyping_delay_per_char = 0\nprobability_mention = 1.0\n';

function textOf(request: PeerActionRequest): string {
  const message = request.params['message'];
  if (typeof message === 'string') return message;
  return (message as { type: string; data: Record<string, unknown> }[])
    .filter((segment) => segment.type === 'text')
    .map((segment) => String(segment.data['text']))
    .join('');
}

describe('the bot against hostile input and several accounts, with real processes', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  async function startBot(options: { adapterToml?: string; modelsToml?: string; ndfc?: string } = {}): Promise<{ cwd: string; url: string; bot: BotProcess }> {
    const cwd = tempDir();
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[platform]\nadapter = "onebot_v11"\n[chat]\nmessage_buffer_seconds = 0\n');
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `${options.adapterToml ?? ''}\n[reverse]\nport = ${port}\n`);
    if (options.modelsToml !== undefined) writeFileSync(join(cwd, 'config', 'models.toml'), options.modelsToml);
    const bot = run(ARGS, { cwd, pluginConfigs: { neo_default_chatter: options.ndfc ?? FAST_NDFC } });
    return { cwd, url: `ws://127.0.0.1:${port}/onebot/v11/ws`, bot };
  }

  function peer(selfId: string): OneBotPeer {
    const created = new OneBotPeer({ selfId, waitTimeoutMs: 30_000 });
    closers.push(() => created.close());
    return created;
  }

  it('[app] [issue 13.2] a reply goes out on the account its message came in on, not the newest connection, and waits while that account is away', async () => {
    const { url, bot } = await startBot({ ndfc: '[plugin]\ntyping_delay_per_char = 1\ntyping_delay_max_seconds = 2\n' });
    await bot.waitForLog(/^ready in/);
    const second = peer('20000');
    second.connectReverse({ url });
    await second.waitForConnection();
    const first = peer('10000');
    first.connectReverse({ url }); // the newest connection
    await first.waitForConnection();

    second.pushPrivateMessage({ userId: 42, message: '从二号来的' });
    await second.waitForAction('send_private_msg');
    expect(textOf(second.actions.find((request) => request.action === 'send_private_msg')!)).toBe('（演示模型）收到：从二号来的');
    expect(first.actions.filter((request) => request.action === 'send_private_msg')).toEqual([]);

    // Account 20000 drops while its reply is being typed: the reply waits for it.
    second.pushPrivateMessage({ userId: 43, message: '再来一条' });
    await bot.waitForLog(/^stored an inbound message$/);
    await second.close();
    await bot.waitForLog(/could not be delivered yet/, 20_000);
    expect(first.actions.filter((request) => request.action === 'send_private_msg')).toEqual([]);
    second.connectReverse({ url });
    await until(() => second.actions.filter((request) => request.action === 'send_private_msg').length === 2, { what: 'the reply on account 20000 once it is back' });
    expect(textOf(second.actions.filter((request) => request.action === 'send_private_msg')[1]!)).toBe('（演示模型）收到：再来一条');
    expect(first.actions.filter((request) => request.action === 'send_private_msg')).toEqual([]);
  }, 60_000);

  it('[app] [issue 13.7] an image URL pointing at an internal service is never fetched, and the chat goes on', async () => {
    const internal: string[] = [];
    const service: Server = createServer((request, response) => {
      internal.push(request.url ?? '');
      response.end('secret admin page');
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => service.close(() => resolve())));
    const servicePort = (service.address() as AddressInfo).port;
    const model = await FakeOpenAiServer.start();
    closers.push(() => model.close());
    const reply = completion({ content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send_text', arguments: '{"content":"看不到图"}' } }] }, 'tool_calls');
    const quiet = completion({ content: '' });
    const route: FakeHandler = (request, response) => {
      const last = (request.body['messages'] as { role: string }[]).at(-1);
      (last?.role === 'tool' ? quiet : reply)(request, response);
    };
    model.reply(route);
    const { url, bot, cwd } = await startBot({
      modelsToml: `[providers.local]\nbase_url = "${model.baseUrl}"\napi_key = ""\nmax_retries = 0\n\n[models.main]\nprovider = "local"\nmodel = "vision-chat"\n\n[tasks.actor]\nmodels = ["main"]\n\n[tasks.vlm]\nmodels = ["main"]\n`,
    });
    await bot.waitForLog(/^ready in/);
    const napcat = peer('10000');
    napcat.connectReverse({ url });
    await napcat.waitForConnection();
    for (const target of [`http://127.0.0.1:${servicePort}/admin`, `http://[::ffff:127.0.0.1]:${servicePort}/x`, `http://2130706433:${servicePort}/y`, 'file:///etc/hostname']) {
      napcat.pushPrivateMessage({ userId: 42, message: [{ type: 'text', data: { text: '看这个' } }, { type: 'image', data: { url: target, file: 'a.png' } }] });
    }
    await napcat.waitForAction('send_private_msg');
    await until(() => bot.logs.filter((record) => /^could not describe an image: refused to (fetch|read)/.test(String(record['msg']))).length >= 4, {
      what: 'four refusals logged',
    });
    expect(internal).toEqual([]);
    expect(model.requests.some((request) => JSON.stringify(request.body).includes('image_url'))).toBe(false);
    const database = new Database(join(cwd, 'data', 'moonglass.db'), { readonly: true });
    try {
      const texts = (database.prepare("SELECT processed_plain_text AS text FROM messages WHERE direction = 'inbound'").all() as { text: string }[]).map((row) => row.text);
      expect(texts.every((text) => text === '看这个[图片]')).toBe(true);
    } finally {
      database.close();
    }
  }, 60_000);

  it('[app] [issue 13.8] an invalid access_token stops the start naming the field, and its value appears nowhere in the output', async () => {
    const { bot } = await startBot({ adapterToml: 'access_token = 987654321987' });
    const exited = await bot.exited;
    expect(exited.code).toBe(1);
    const output = [...bot.stdout, ...bot.stderr].join('\n');
    expect(output).toContain('access_token');
    expect(output).not.toContain('987654321987');
  }, 30_000);

  it('[app] [issue 13.9] [issue 13.10] an over-long message is stored cut with its raw frame summarised, and 300 junk frames log a few lines, not 300', async () => {
    const { url, bot, cwd } = await startBot();
    await bot.waitForLog(/^ready in/);
    const napcat = peer('10000');
    napcat.connectReverse({ url });
    await napcat.waitForConnection();
    for (let index = 0; index < 300; index += 1) napcat.pushRaw(`{"post_type": "message", "junk": ${index}`);
    napcat.pushPrivateMessage({ userId: 42, message: '长'.repeat(30_000) });
    await napcat.waitForAction('send_private_msg');
    const skipped = bot.logs.filter((record) => String(record['msg']).startsWith('OneBot frame skipped'));
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.length).toBeLessThanOrEqual(5);
    const database = new Database(join(cwd, 'data', 'moonglass.db'), { readonly: true });
    try {
      const row = database.prepare("SELECT content, raw FROM messages WHERE direction = 'inbound'").get() as { content: string; raw: string };
      expect(row.content.length).toBeLessThan(20_100);
      expect(row.content).toContain('已截断');
      expect(row.raw.length).toBeLessThan(1_000);
    } finally {
      database.close();
    }
  }, 60_000);
});

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BotProcess, useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer } from '../support/onebot-peer.js';
import { storedRows } from '../support/stored-messages.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// The real CLI runs the host; the host forks the OneBot adapter process; a loopback peer
// connects to it the way NapCat does (reverse WebSocket, X-Self-ID, Bearer token).

const TOKEN = 's3cret-token';
// Every group @-mention passes the probability gate, and replies are typed quickly.
const NDFC_CONFIG = '[plugin]\nprobability_mention = 1.0\ntyping_delay_per_char = 0.01\n';


describe('npm start with the OneBot v11 adapter', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });

  /** `prepare` writes what the bot project holds besides its config (plugins/ ...) before the start. */
  async function startBot(prepare: (cwd: string) => void = () => undefined, platform = ''): Promise<{ cwd: string; bot: BotProcess; url: string }> {
    const cwd = tempDir();
    prepare(cwd);
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), `[platform]\nadapter = "onebot_v11"\n${platform}[accounts]\nqq = "10000"\n`);
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `access_token = "${TOKEN}"\n[reverse]\nport = ${port}\n`);
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd, pluginConfigs: { neo_default_chatter: NDFC_CONFIG } });
    const listening = await bot.waitForLog(/^OneBot reverse mode: listening on /);
    const url = String(listening['msg']).replace('OneBot reverse mode: listening on ', '');
    await bot.waitForLog(/^ready in/);
    return { cwd, bot, url };
  }

  function peer(): OneBotPeer {
    const created = new OneBotPeer({ selfId: '10000', waitTimeoutMs: 30_000 });
    peers.push(created);
    return created;
  }

  it('[issue 14] a plugin that overrides TOKENS.ModelClient answers a real conversation through the OneBot adapter', async () => {
    const { bot, url } = await startBot((cwd) => {
      const folder = join(cwd, 'plugins', 'echo-model');
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(folder, '_manifest.json'),
        JSON.stringify({
          manifest_version: 1,
          id: 'example.echo-model',
          plugin_type: 'tool',
          name: 'example.echo-model',
          version: '1.0.0',
          description: 'answers every model call itself',
          host_application: { min_version: '0.1.0', max_version: '0.9.0' },
        }),
      );
      writeFileSync(
        join(folder, 'plugin.ts'),
        [
          "import { ToolPlugin, TOKENS, type ModelClient } from 'moonglass';",
          'export class EchoModel extends ToolPlugin {',
          '  override async onLoad(): Promise<void> {',
          '    const client: ModelClient = {',
          '      complete: async (call) => {',
          "        const last = JSON.stringify(call.payloads.at(-1)?.content ?? '');",
          "        const heard = last.includes('你好呀') ? '你好呀' : '?';",
          "        return { message: '', reasoning: '', finishReason: 'tool_calls', usage: undefined,",
          "          toolCalls: [{ id: 'c0', name: 'send_text', args: { content: `覆盖的模型听到了：${heard}（${call.provider}）` } }] };",
          '      },',
          '    };',
          '    this.ctx.override(TOKENS.ModelClient, { useValue: client });',
          '  }',
          '}',
        ].join('\n'),
      );
    });
    const napcat = peer();
    napcat.connectReverse({ url, token: TOKEN });
    await napcat.waitForConnection();
    napcat.pushPrivateMessage({ userId: 42, nickname: '阿明', message: [{ type: 'text', data: { text: '你好呀' } }] });
    const send = await napcat.waitForAction('send_private_msg');
    const segments = send.params['message'] as { type: string; data: Record<string, unknown> }[];
    expect(segments.map((segment) => segment.data['text']).join('')).toBe('覆盖的模型听到了：你好呀（offline）');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  });

  it('[app] a group @-mention gets a reply through send_group_msg; a wrong token is refused; a malformed frame is survived', async () => {
    const { cwd, bot, url } = await startBot();
    expect(bot.logs.some((record) => record['msg'] === 'adapter: onebot_v11 (listening on ' + url + ')' || String(record['msg']).startsWith('adapter: onebot_v11'))).toBe(true);

    const intruder = peer();
    intruder.connectReverse({ url, token: 'wrong', reconnectIntervalMs: 60_000 });
    expect((await intruder.waitForRefusal()).status).toBe(401);
    await intruder.close();

    const napcat = peer();
    napcat.connectReverse({ url, token: TOKEN });
    await napcat.waitForConnection();
    await bot.waitForLog(/OneBot .*connect/i);
    napcat.pushRaw('{"post_type": "message", "message_type": "group"');
    napcat.pushGroupMessage({ groupId: 777, userId: 42, nickname: '阿明', message: [{ type: 'at', data: { qq: '10000' } }, { type: 'text', data: { text: ' 你好呀' } }] });
    const send = await napcat.waitForAction('send_group_msg');
    expect(send.params['group_id']).toBe(777);
    const segments = send.params['message'] as { type: string; data: Record<string, unknown> }[];
    expect(segments.filter((segment) => segment.type === 'text').map((segment) => segment.data['text']).join('')).toContain('（演示模型）收到：');
    expect(bot.logs.some((record) => record['level'] === 40 && /frame|invalid|malformed/i.test(String(record['msg'])))).toBe(true);

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    const stored = storedRows(join(cwd, 'data'), 'SELECT direction, chat_type, sender_id FROM messages ORDER BY row_id');
    expect(stored).toEqual([
      { direction: 'inbound', chat_type: 'group', sender_id: '42' },
      expect.objectContaining({ direction: 'outbound', chat_type: 'group' }),
    ]);
  }, 60_000);

  it('[app] with [platform] isolation = "process", an adapter process killed with SIGKILL is restarted, the peer reconnects, and no inbound message is lost or answered twice', async () => {
    const { cwd, bot, url } = await startBot(undefined, 'isolation = "process"\n');
    const napcat = peer();
    napcat.connectReverse({ url, token: TOKEN });
    await napcat.waitForConnection();
    napcat.pushPrivateMessage({ userId: 42, message: '第一条' });
    await napcat.waitForAction('send_private_msg');
    // The reply is confirmed and stored before the crash (a send the adapter took but did not
    // confirm before dying is not repeated: at most once, never twice).
    await until(() => storedRows(join(cwd, 'data'), "SELECT 1 FROM messages WHERE direction = 'outbound'").length === 1, { what: 'the reply to be stored' });

    const up = bot.logs.find((record) => record['msg'] === 'the onebot_v11 adapter is up');
    expect(up).toMatchObject({ isolation: 'process', pid: expect.any(Number) });
    expect(up?.['pid']).not.toBe(bot.child.pid);
    process.kill(Number(up?.['pid']), 'SIGKILL');
    await bot.waitForLog(/^the onebot_v11 adapter exited unexpectedly \(signal SIGKILL\)/);
    await bot.waitForLog(/^the onebot_v11 adapter is up again \(restart 1\)/);
    await napcat.waitForConnection(2);
    napcat.pushPrivateMessage({ userId: 42, message: '第二条' });
    await napcat.waitForAction('send_private_msg', 2);

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(napcat.actions.filter((action) => action.action === 'send_private_msg')).toHaveLength(2);
    const stored = storedRows(join(cwd, 'data'), 'SELECT direction, content FROM messages ORDER BY row_id');
    expect(stored.filter((row) => row['direction'] === 'inbound').map((row) => row['content'])).toEqual(['第一条', '第二条']);
    expect(stored.filter((row) => row['direction'] === 'outbound'), JSON.stringify(stored) + bot.stderr.slice(-15).join('\n')).toHaveLength(2);
  }, 60_000);

  it('[issue 20] by default ([platform] isolation = "thread") the adapter runs in a thread of the host process (no second process), answers, and stops with it', async () => {
    const { cwd, bot, url } = await startBot();
    const up = bot.logs.find((record) => record['msg'] === 'the onebot_v11 adapter is up');
    expect(up).toMatchObject({ isolation: 'thread', pid: bot.child.pid, threadId: expect.any(Number) });
    // The host has no child process at all.
    const children = readFileSync(`/proc/${bot.child.pid}/task/${bot.child.pid}/children`, 'utf8').trim();
    expect(children).toBe('');

    const napcat = peer();
    napcat.connectReverse({ url, token: TOKEN });
    await napcat.waitForConnection();
    napcat.pushPrivateMessage({ userId: 42, message: '线程里的适配器' });
    const send = await napcat.waitForAction('send_private_msg');
    expect(JSON.stringify(send.params['message'])).toContain('（演示模型）收到：线程里的适配器');

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(bot.logs.some((record) => record['msg'] === 'the onebot_v11 adapter stopped')).toBe(true);
    const stored = storedRows(join(cwd, 'data'), 'SELECT direction, content FROM messages ORDER BY row_id');
    expect(stored.map((row) => row['direction'])).toEqual(['inbound', 'outbound']);
  }, 60_000);
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BotProcess, useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer } from '../support/onebot-peer.js';
import { storedRows } from '../support/stored-messages.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// The real CLI runs the host, the host forks the OneBot adapter, a loopback peer connects the
// way NapCat does; a plugin in the bot project handles on_notice / on_request.

const TOKEN = 'events-token';
const NDFC_CONFIG = '[plugin]\nprobability_mention = 1.0\ntyping_delay_per_char = 0.01\n';

/** A plugin that logs every notice and request (with the account) and answers requests through ctx.platform. */
const GATEKEEPER = [
  "import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, ToolPlugin, type ComponentClass, type EventParams } from 'moonglass';",
  '',
  "@eventHandler({ name: 'notices', subscribe: ['on_notice'] })",
  "class Notices extends BaseEventHandler<'on_notice'> {",
  '  readonly #plugin: ToolPlugin;',
  '  constructor(@inject(TOKENS.Plugin) plugin: ToolPlugin) { super(); this.#plugin = plugin; }',
  "  execute(_event: 'on_notice', params: EventParams<'on_notice'>) {",
  "    this.#plugin.ctx.logger.info({ self_id: params.self_id, stream_id: params.stream_id, notice: params.notice }, 'gatekeeper saw a notice');",
  '    return [EventDecision.PASS, params] as const;',
  '  }',
  '}',
  '',
  "@eventHandler({ name: 'requests', subscribe: ['on_request'] })",
  "class Requests extends BaseEventHandler<'on_request'> {",
  '  readonly #plugin: ToolPlugin;',
  '  constructor(@inject(TOKENS.Plugin) plugin: ToolPlugin) { super(); this.#plugin = plugin; }',
  "  async execute(_event: 'on_request', params: EventParams<'on_request'>) {",
  '    const { ctx } = this.#plugin;',
  "    ctx.logger.info({ self_id: params.self_id, request: params.request }, 'gatekeeper saw a request');",
  '    const account = { account: params.self_id };',
  '    try {',
  "      if (params.request.request_type === 'friend') {",
  "        const data = await ctx.platform.call('set_friend_add_request', { flag: params.request.flag, approve: true, remark: 'from moonglass' }, account);",
  "        ctx.logger.info({ data }, 'gatekeeper approved a friend');",
  '      } else {',
  "        await ctx.platform.call('set_group_add_request', { flag: params.request.flag, sub_type: params.request.sub_type, approve: false, reason: 'no' }, account);",
  '      }',
  '    } catch (error) {',
  "      ctx.logger.info({ error: error instanceof Error ? error.message : String(error) }, 'gatekeeper action failed');",
  '    }',
  '    return [EventDecision.PASS, params] as const;',
  '  }',
  '}',
  '',
  'export class Gatekeeper extends ToolPlugin {',
  '  override components(): ComponentClass[] { return [Notices, Requests]; }',
  '}',
  '',
].join('\n');

function writeGatekeeper(cwd: string): void {
  const folder = join(cwd, 'plugins', 'gatekeeper');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, '_manifest.json'),
    JSON.stringify({
      manifest_version: 1,
      id: 'example.gatekeeper',
      plugin_type: 'tool',
      name: 'example.gatekeeper',
      version: '1.0.0',
      description: 'answers friend and group requests',
      host_application: { min_version: '0.1.0', max_version: '0.9.0' },
    }),
  );
  writeFileSync(join(folder, 'plugin.ts'), GATEKEEPER);
}


/** A model that answers every call with send_text of what it was shown last (so a test sees the prompt). */
const ECHO_MODEL = [
  "import { ToolPlugin, TOKENS, type ModelClient } from 'moonglass';",
  'export class EchoModel extends ToolPlugin {',
  '  override async onLoad(): Promise<void> {',
  '    const client: ModelClient = {',
  '      complete: async (call) => {',
  "        const shown = JSON.stringify(call.payloads.map((payload) => payload.content));",
  "        return { message: '', reasoning: '', finishReason: 'tool_calls', usage: undefined,",
  "          toolCalls: [{ id: 'c0', name: 'send_text', args: { content: `shown: ${shown.includes('please forget this') ? (shown.includes('[已撤回] please forget this') ? 'recalled' : 'live') : 'absent'} / ${shown.includes('second message') ? 'second' : ''}` } }] };",
  '      },',
  '    };',
  '    this.ctx.override(TOKENS.ModelClient, { useValue: client });',
  '  }',
  '}',
].join('\n');

function writeEchoModel(cwd: string): void {
  const folder = join(cwd, 'plugins', 'echo-model');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, '_manifest.json'),
    JSON.stringify({ manifest_version: 1, id: 'example.echo-model', plugin_type: 'tool', name: 'example.echo-model', version: '1.0.0', description: 'echo', host_application: { min_version: '0.1.0', max_version: '0.9.0' } }),
  );
  writeFileSync(join(folder, 'plugin.ts'), ECHO_MODEL);
}

describe('npm start with the OneBot v11 adapter: notices and requests', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });

  async function startBot(options: { echoModel?: boolean } = {}): Promise<{ cwd: string; bot: BotProcess; peer: OneBotPeer }> {
    const cwd = tempDir();
    writeGatekeeper(cwd);
    if (options.echoModel === true) writeEchoModel(cwd);
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[platform]\nadapter = "onebot_v11"\n[accounts]\nqq = "10000"\n');
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `access_token = "${TOKEN}"\n[reverse]\nport = ${port}\n`);
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd, pluginConfigs: { neo_default_chatter: NDFC_CONFIG } });
    const listening = await bot.waitForLog(/^OneBot reverse mode: listening on /);
    const url = String(listening['msg']).replace('OneBot reverse mode: listening on ', '');
    await bot.waitForLog(/^ready in/);
    const peer = new OneBotPeer({ selfId: '10000', waitTimeoutMs: 30_000 });
    peers.push(peer);
    peer.connectReverse({ url, token: TOKEN });
    await peer.waitForConnection();
    return { cwd, bot, peer };
  }

  it('[issue 17] a notice and a request reach a plugin with the account; its answer through ctx.platform is the right action frame', async () => {
    const { bot, peer } = await startBot();
    peer.answer('set_friend_add_request', { kind: 'ok', data: null });

    peer.pushNotice({ notice_type: 'group_increase', sub_type: 'approve', group_id: 30001, operator_id: 20002, user_id: 20003 });
    const notice = await bot.waitForLog(/^gatekeeper saw a notice$/);
    expect(notice['self_id']).toBe('10000');
    expect(notice['stream_id']).toMatch(/^[0-9a-f]{64}$/);
    expect(notice['notice']).toEqual({ notice_type: 'group_increase', sub_type: 'approve', group_id: '30001', operator_id: '20002', user_id: '20003' });

    peer.pushRequest({ request_type: 'friend', user_id: 20004, comment: 'hi, I am Dora', flag: 'friend-flag-1' });
    const request = await bot.waitForLog(/^gatekeeper saw a request$/);
    expect(request['self_id']).toBe('10000');
    expect(request['request']).toEqual({ request_type: 'friend', user_id: '20004', comment: 'hi, I am Dora', flag: 'friend-flag-1' });
    const action = await peer.waitForAction('set_friend_add_request');
    expect(action.params).toEqual({ flag: 'friend-flag-1', approve: true, remark: 'from moonglass' });
    const approved = await bot.waitForLog(/^gatekeeper approved a friend$/);
    expect(approved['data']).toBeNull();
  }, 60_000);

  it('[issue 17] with two accounts connected, the answer to a request goes to the connection of the account it came on', async () => {
    const { bot, peer: first } = await startBot();
    const second = new OneBotPeer({ selfId: '10001', waitTimeoutMs: 30_000 });
    peers.push(second);
    const url = String((await bot.waitForLog(/^OneBot reverse mode: listening on /))['msg']).replace('OneBot reverse mode: listening on ', '');
    second.connectReverse({ url, token: TOKEN });
    await second.waitForConnection();
    second.answer('set_friend_add_request', { kind: 'ok', data: null });

    second.pushRequest({ request_type: 'friend', user_id: 20008, comment: '', flag: 'second-flag' });
    const request = await bot.waitForLog(/^gatekeeper saw a request$/);
    expect(request['self_id']).toBe('10001');
    const action = await second.waitForAction('set_friend_add_request');
    expect(action.params).toMatchObject({ flag: 'second-flag' });
    await bot.waitForLog(/^gatekeeper approved a friend$/);
    expect(first.actions.map((sent) => sent.action)).not.toContain('set_friend_add_request');
  }, 60_000);

  it('[issue 17] a platform action the peer refuses comes back to the plugin as an error with the reason', async () => {
    const { bot, peer } = await startBot();
    peer.answer('set_group_add_request', { kind: 'failed', retcode: 100, message: 'flag expired', wording: 'the request has expired' });

    peer.pushRequest({ request_type: 'group', sub_type: 'add', group_id: 30001, user_id: 20005, comment: 'let me in', flag: 'group-flag-1' });
    const action = await peer.waitForAction('set_group_add_request');
    expect(action.params).toEqual({ flag: 'group-flag-1', sub_type: 'add', approve: false, reason: 'no' });
    const failed = await bot.waitForLog(/^gatekeeper action failed$/);
    expect(String(failed['error'])).toContain('the request has expired');
  }, 60_000);

  it('[issue 17] a malformed v11 notice is refused with the field named in the log, and no handler sees it', async () => {
    const { bot, peer } = await startBot();
    peer.pushNotice({ notice_type: 'group_ban', sub_type: 'mute', group_id: 30001, operator_id: 20002, user_id: 20003, duration: 60 });
    const skipped = await bot.waitForLog(/^OneBot frame skipped: notice event: sub_type: must be "ban" or "lift_ban"$/);
    expect(skipped['level']).toBeDefined();
    peer.pushNotice({ notice_type: 'friend_add', user_id: 20006 });
    const next = await bot.waitForLog(/^gatekeeper saw a notice$/);
    expect(next['notice']).toEqual({ notice_type: 'friend_add', user_id: '20006' });
  }, 60_000);

  it('[issue 17] a recalled message is stored as recalled and read, so it is not answered', async () => {
    const { cwd, bot, peer } = await startBot();
    // Held in the adapter: the message and its recall reach the host in order, the recall
    // before any chatter step (the private chat waits for its typing pause first).
    peer.pushPrivateMessage({ message: 'please forget this', messageId: 4242, userId: 20007 });
    peer.pushNotice({ notice_type: 'friend_recall', user_id: 20007, message_id: 4242 });
    await bot.waitForLog(/^gatekeeper saw a notice$/);
    await until(() => storedRows(join(cwd, 'data'), "SELECT * FROM messages WHERE message_id = '4242'").length === 1, { what: 'the message stored' });
    const [stored] = storedRows(join(cwd, 'data'), "SELECT * FROM messages WHERE message_id = '4242'");
    expect(stored).toMatchObject({ processed_plain_text: '[已撤回] please forget this' });
    expect(stored!['unread']).toBe(0);
  }, 60_000);

  it('[issue 17] a message recalled before the bot answered is not answered, and the next prompt shows it as recalled', async () => {
    const { bot, peer } = await startBot({ echoModel: true });
    peer.pushPrivateMessage({ message: 'please forget this', messageId: 5151, userId: 20009 });
    peer.pushNotice({ notice_type: 'friend_recall', user_id: 20009, message_id: 5151 });
    await bot.waitForLog(/^gatekeeper saw a notice$/);
    peer.pushPrivateMessage({ message: 'second message', messageId: 5152, userId: 20009 });
    const send = await peer.waitForAction('send_private_msg');
    const text = (send.params['message'] as { data: Record<string, unknown> }[]).map((segment) => segment.data['text']).join('');
    // The first reply already saw the second message: nothing answered the recalled one alone.
    expect(text).toBe('shown: recalled / second');
  }, 60_000);
});

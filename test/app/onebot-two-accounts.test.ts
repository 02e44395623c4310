import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BotProcess, useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer, type PeerSegment } from '../support/onebot-peer.js';
import { storedRows } from '../support/stored-messages.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// Issue 17 item 1, through the real CLI: two loopback QQ clients with different X-Self-ID
// connect to one host. Each account's conversation is its own stream and is answered on
// its own connection only; a client that goes away does not affect the other.

const TOKEN = 'two-accounts-token';
const GROUP = 30017;

const textOf = (request: { params: Record<string, unknown> }) =>
  (request.params['message'] as PeerSegment[])
    .filter((segment) => segment.type === 'text')
    .map((segment) => String(segment.data['text']))
    .join('');

describe('npm start with two OneBot accounts connected', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });

  async function startBot(ndfc: string): Promise<{ cwd: string; bot: BotProcess; url: string }> {
    const cwd = tempDir();
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[platform]\nadapter = "onebot_v11"\n[accounts]\nqq = "10000"\n');
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `access_token = "${TOKEN}"\n[reverse]\nport = ${port}\n`);
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd, pluginConfigs: { neo_default_chatter: ndfc } });
    const listening = await bot.waitForLog(/^OneBot reverse mode: listening on /);
    await bot.waitForLog(/^ready in/);
    return { cwd, bot, url: String(listening['msg']).replace('OneBot reverse mode: listening on ', '') };
  }

  async function connect(url: string, selfId: string): Promise<OneBotPeer> {
    const peer = new OneBotPeer({ selfId, waitTimeoutMs: 30_000 });
    peers.push(peer);
    peer.connectReverse({ url, token: TOKEN });
    await peer.waitForConnection();
    return peer;
  }

  const mention = (selfId: string, text: string): PeerSegment[] => [
    { type: 'at', data: { qq: selfId } },
    { type: 'text', data: { text: ` ${text}` } },
  ];

  it('answers a group message on each account on its own connection only, as two conversations', async () => {
    const { cwd, url } = await startBot('[plugin]\nprobability_mention = 1.0\ntyping_delay_per_char = 0.01\n');
    const first = await connect(url, '10000');
    const second = await connect(url, '10001');

    first.pushGroupMessage({ groupId: GROUP, userId: 20001, message: mention('10000', 'hello first account') });
    second.pushGroupMessage({ groupId: GROUP, userId: 20001, message: mention('10001', 'hello second account') });
    const onFirst = await first.waitForAction('send_group_msg');
    const onSecond = await second.waitForAction('send_group_msg');
    expect(textOf(onFirst)).toContain('hello first account');
    expect(textOf(onSecond)).toContain('hello second account');
    expect(onFirst.params['group_id']).toBe(GROUP);
    expect(onSecond.params['group_id']).toBe(GROUP);
    // Neither connection carried the other account's answer.
    expect(first.actions.filter((request) => request.action === 'send_group_msg')).toHaveLength(1);
    expect(second.actions.filter((request) => request.action === 'send_group_msg')).toHaveLength(1);

    const data = join(cwd, 'data');
    await until(() => storedRows(data, "SELECT * FROM messages WHERE direction = 'outbound'").length === 2, { what: 'both answers stored' });
    const streams = storedRows(data, `SELECT stream_id, account, group_id FROM streams WHERE group_id = '${GROUP}' ORDER BY account`);
    expect(streams.map((row) => [row['account'], row['group_id']])).toEqual([
      ['10000', String(GROUP)],
      ['10001', String(GROUP)],
    ]);
    expect(streams[0]!['stream_id']).not.toBe(streams[1]!['stream_id']);
  }, 90_000);

  it('keeps answering one account after the other disconnects', async () => {
    const { url } = await startBot('[plugin]\nprobability_mention = 1.0\ntyping_delay_per_char = 0.01\n');
    const first = await connect(url, '10000');
    const second = await connect(url, '10001');
    await second.close();

    first.pushPrivateMessage({ userId: 20002, message: 'still there?' });
    const answer = await first.waitForAction('send_private_msg');
    expect(textOf(answer)).toContain('still there?');
    expect(second.actions.filter((request) => request.action.startsWith('send_'))).toEqual([]);
  }, 90_000);

  it('does not send an answer whose message was recalled while it waited to be typed', async () => {
    // A long typing delay: the answer sits in the outbox when the recall comes.
    const { cwd, bot, url } = await startBot('[plugin]\ntyping_delay_per_char = 1\ntyping_delay_max_seconds = 4\n');
    const first = await connect(url, '10000');
    first.pushPrivateMessage({ userId: 20003, messageId: 7001, message: 'please forget this' });
    const data = join(cwd, 'data');
    await until(() => storedRows(data, 'SELECT * FROM model_calls').length >= 1, { what: 'the model answered', timeoutMs: 30_000 });
    first.pushNotice({ notice_type: 'friend_recall', user_id: 20003, message_id: 7001 });
    const stopped = await bot.waitForLog(/^(withdrew queued replies to a recalled message|a reply was not sent: the messages it answers were recalled)$/);
    expect(stopped['stream_id']).toMatch(/^[0-9a-f]{64}$/);

    first.pushPrivateMessage({ userId: 20003, messageId: 7002, message: 'what time is it' });
    const answer = await first.waitForAction('send_private_msg');
    // The first answer the client got is to the second message: the recalled one got none.
    expect(textOf(answer)).toContain('what time is it');
    expect(textOf(answer)).not.toContain('please forget this');
  }, 90_000);
});

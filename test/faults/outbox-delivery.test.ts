import Database from 'better-sqlite3';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BotProcess, useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer, type PeerActionRequest } from '../support/onebot-peer.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// Issue 13, item 1: replies are durable before they are typed and leave the outbox only when
// the platform took them. Real processes throughout: the CLI host, its OneBot adapter
// process, a loopback peer that connects like NapCat, the SQLite file on disk.

const ARGS = ['start', '--config-dir', 'config', '--data-dir', 'data'];

function ndfcConfig(typingDelaySeconds: number): string {
  // The demo model's replies are ~15 characters: every reply is typed for the cap.
  return `[plugin]\ntyping_delay_per_char = ${typingDelaySeconds === 0 ? 0 : 1}\ntyping_delay_max_seconds = ${typingDelaySeconds}\n`;
}

/** Counts in the bot's database, read while it runs (WAL: a reader does not disturb the writer). */
function counts(cwd: string): { inbound: number; unread: number; outbound: number; outbox: number } {
  const file = join(cwd, 'data', 'moonglass.db');
  if (!existsSync(file)) return { inbound: 0, unread: 0, outbound: 0, outbox: 0 };
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const one = (sql: string) => (database.prepare(sql).get() as { n: number }).n;
    const hasOutbox = database.prepare("SELECT 1 FROM sqlite_master WHERE name = 'outbox'").get() !== undefined;
    return {
      inbound: one("SELECT COUNT(*) AS n FROM messages WHERE direction = 'inbound'"),
      unread: one('SELECT COUNT(*) AS n FROM messages WHERE unread = 1'),
      outbound: one("SELECT COUNT(*) AS n FROM messages WHERE direction = 'outbound'"),
      outbox: hasOutbox ? one('SELECT COUNT(*) AS n FROM outbox') : 0,
    };
  } catch {
    return { inbound: 0, unread: 0, outbound: 0, outbox: 0 }; // the schema is still being created
  } finally {
    database.close();
  }
}

function sentTexts(request: PeerActionRequest): string {
  const segments = request.params['message'] as { type: string; data: Record<string, unknown> }[];
  return segments.filter((segment) => segment.type === 'text').map((segment) => String(segment.data['text'])).join('');
}

/** How many replies each user got (by `user_id`), from the peer's record of actions. */
function repliesPerUser(peer: OneBotPeer): Map<number, string[]> {
  const replies = new Map<number, string[]>();
  for (const request of peer.actions) {
    if (request.action !== 'send_private_msg') continue;
    const user = Number(request.params['user_id']);
    replies.set(user, [...(replies.get(user) ?? []), sentTexts(request)]);
  }
  return replies;
}

/** Each of `count` users (`firstUser + 1` …) says `text n`. */
function pushFromUsers(peer: OneBotPeer, firstUser: number, count: number, text: string): void {
  for (let user = 1; user <= count; user += 1) peer.pushPrivateMessage({ userId: firstUser + user, message: `${text} ${user}` });
}

/** Each of those users got exactly one answer, the demo model's to their message. */
function expectEachAnsweredOnce(peer: OneBotPeer, firstUser: number, count: number, text: string): void {
  const replies = repliesPerUser(peer);
  for (let user = 1; user <= count; user += 1) expect(replies.get(firstUser + user), `user ${user}`).toEqual([`（演示模型）收到：${text} ${user}`]);
}

describe('the durable outbox, with real processes', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });

  /** `isolation`: bot.toml [platform] isolation, for the tests that kill the adapter's own process. */
  async function setUp(typingDelaySeconds: number, isolation: 'thread' | 'process' = 'thread'): Promise<{ cwd: string; url: string; start(): Promise<BotProcess> }> {
    const cwd = tempDir();
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), `[platform]\nadapter = "onebot_v11"\nisolation = "${isolation}"\n[accounts]\nqq = "10000"\n[chat]\nmessage_buffer_seconds = 0\n`);
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `[reverse]\nport = ${port}\n`);
    const url = `ws://127.0.0.1:${port}/onebot/v11/ws`;
    const start = async () => {
      const bot = run([...ARGS, '--log-level', 'debug'], { cwd, pluginConfigs: { neo_default_chatter: ndfcConfig(typingDelaySeconds) } });
      await bot.waitForLog(/^ready in/);
      return bot;
    };
    return { cwd, url, start };
  }

  function peer(): OneBotPeer {
    const created = new OneBotPeer({ selfId: '10000', waitTimeoutMs: 60_000 });
    peers.push(created);
    return created;
  }

  /** A peer connected to the bot's reverse endpoint, like NapCat. */
  async function connectedPeer(url: string): Promise<OneBotPeer> {
    const napcat = peer();
    napcat.connectReverse({ url });
    await napcat.waitForConnection();
    return napcat;
  }

  it('[fault] kill -9 of the host while 100 conversations are typing their replies, then a restart: each is answered exactly once', async () => {
    const { cwd, url, start } = await setUp(8);
    const first = await start();
    const napcat = await connectedPeer(url);
    pushFromUsers(napcat, 50_000, 100, '你好');
    // Every message answered by the model and its reply queued, none typed out yet.
    await until(() => {
      const now = counts(cwd);
      return now.inbound === 100 && now.unread === 0 && now.outbox + now.outbound === 100;
    }, { what: '100 replies queued', timeoutMs: 60_000 });
    const queued = counts(cwd).outbox;
    expect(queued).toBeGreaterThan(50);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await start();
    await until(() => counts(cwd).outbox === 0, { what: 'the outbox drained after the restart', timeoutMs: 60_000 });
    expect(repliesPerUser(napcat).size).toBe(100);
    expectEachAnsweredOnce(napcat, 50_000, 100, '你好');
    expect(second.logs.some((record) => String(record['msg']).includes('the outbox holds replies from before the restart'))).toBe(true);
    expect(counts(cwd)).toEqual({ inbound: 100, unread: 0, outbound: 100, outbox: 0 });
  }, 180_000);

  it('[fault] the peer gone for 15 s while replies are being typed: each is delivered once when it is back', async () => {
    const { cwd, url, start } = await setUp(3);
    const bot = await start();
    const napcat = await connectedPeer(url);
    pushFromUsers(napcat, 60_000, 20, '在吗');
    await until(() => counts(cwd).outbox === 20, { what: '20 replies queued', timeoutMs: 30_000 });
    await napcat.close(); // NapCat restarting
    await bot.waitForLog(/could not be delivered yet/, 30_000);
    const away = Date.now();
    await until(() => Date.now() - away >= 15_000, { what: '15 s away', timeoutMs: 20_000, everyMs: 250 });
    expect(napcat.actions.filter((request) => request.action === 'send_private_msg')).toEqual([]);
    napcat.connectReverse({ url });
    await until(() => counts(cwd).outbox === 0, { what: 'the outbox drained after the reconnect', timeoutMs: 30_000 });
    expectEachAnsweredOnce(napcat, 60_000, 20, '在吗');
    expect(counts(cwd)).toEqual({ inbound: 20, unread: 0, outbound: 20, outbox: 0 });
  }, 120_000);

  it('[fault] a restart that is over before the peer reconnects still delivers every reply owed from before it, once', async () => {
    const { cwd, url, start } = await setUp(2);
    const first = await start();
    const napcat = await connectedPeer(url);
    pushFromUsers(napcat, 70_000, 10, '早上好');
    await until(() => counts(cwd).outbox === 10, { what: '10 replies queued', timeoutMs: 30_000 });
    await napcat.close();
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(counts(cwd).outbox).toBe(10);

    await start();
    napcat.connectReverse({ url });
    await until(() => counts(cwd).outbox === 0, { what: 'the outbox drained', timeoutMs: 30_000 });
    expectEachAnsweredOnce(napcat, 70_000, 10, '早上好');
  }, 120_000);

  it('[fault] the connection drops with a reply in flight: one NapCat took is not sent again, one it never read is, each arrives once', async () => {
    const { cwd, url, start } = await setUp(0);
    const bot = await start();
    const napcat = await connectedPeer(url);
    napcat.answer('send_private_msg', { kind: 'take_then_drop' });
    napcat.pushPrivateMessage({ userId: 90_001, message: '第一个' });
    await bot.waitForLog(/the platform has the reply that was in doubt/, 30_000);
    await napcat.waitForConnection(2);
    napcat.answer('send_private_msg', { kind: 'drop_unread' });
    napcat.pushPrivateMessage({ userId: 90_002, message: '第二个' });
    await bot.waitForLog(/the platform does not have the reply that was in doubt; sending it again/, 30_000);
    await until(() => counts(cwd).outbox === 0 && counts(cwd).outbound === 2, { what: 'both replies delivered', timeoutMs: 30_000 });
    const replies = repliesPerUser(napcat);
    expect(replies.get(90_001)).toEqual(['（演示模型）收到：第一个']);
    expect(replies.get(90_002)).toEqual(['（演示模型）收到：第二个']);
  }, 60_000);

  it('[fault] three kill -9s of the adapter process (isolation = "process") under traffic: every message is answered exactly once', async () => {
    const { cwd, url, start } = await setUp(0, 'process');
    const bot = await start();
    const napcat = await connectedPeer(url);
    const users = 12;
    const rounds = 8;
    const expected = users * rounds;
    // Each user says one thing, waits for the answer, then says the next, like a person; a
    // message the dying adapter never handed to the host is repeated with the same id (as a
    // platform redelivers), which the host must not answer twice.
    let nextId = 900_000;
    const conversations = Array.from({ length: users }, async (_, index) => {
      const user = 80_000 + index;
      for (let round = 1; round <= rounds; round += 1) {
        const text = `第 ${round} 句 ${user}`;
        const messageId = nextId++;
        await until(() => {
          const answered = (repliesPerUser(napcat).get(user) ?? []).some((reply) => reply.endsWith(text));
          if (!answered && napcat.connected) {
            try {
              napcat.pushPrivateMessage({ userId: user, message: text, messageId });
            } catch {
              // the connection dropped just now; the next look repeats it
            }
          }
          return answered;
        }, { what: `an answer to ${text}`, timeoutMs: 90_000, everyMs: 1_500 });
      }
    });
    const kills = (async () => {
      for (let kill = 1; kill <= 3; kill += 1) {
        await until(() => (repliesPerUser(napcat).size > 0 ? [...repliesPerUser(napcat).values()].flat().length : 0) >= (expected * kill) / 4, {
          what: `a quarter more answers before kill ${kill}`,
          timeoutMs: 90_000,
          everyMs: 50,
        });
        const up = [...bot.logs].reverse().find((record) => /adapter is up/.test(String(record['msg'])));
        process.kill(Number(up?.['pid']), 'SIGKILL');
        await bot.waitForLog(new RegExp(`adapter is up again \\(restart ${kill}\\)`), 30_000);
      }
    })();
    await Promise.all([...conversations, kills]);
    await until(() => counts(cwd).outbox === 0 && counts(cwd).unread === 0, { what: 'nothing left to send', timeoutMs: 30_000 });
    const replies = repliesPerUser(napcat);
    for (let index = 0; index < users; index += 1) {
      const user = 80_000 + index;
      const got = replies.get(user) ?? [];
      for (let round = 1; round <= rounds; round += 1) {
        const text = `第 ${round} 句 ${user}`;
        expect(got.filter((reply) => reply.endsWith(text)), `${text} answered once`).toHaveLength(1);
      }
    }
    const { inbound, outbound } = counts(cwd);
    expect(inbound).toBe(expected);
    expect(outbound).toBe(expected);
  }, 240_000);
});

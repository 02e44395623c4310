import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/app/create-host.js';
import type { IngressOutcome } from '../../../src/chat/ingress.js';
import { createMemoryLogger, type LogRecord } from '../../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../../src/kernel/time/manual-clock.js';
import { SequenceRandom } from '../../../src/kernel/time/random.js';
import { ScriptedModel } from '../../../src/llm/scripted-model.js';
import { copyBuiltInPlugins } from '../../../src/testing/copy-plugin-folders.js';
import { FakeAdapter } from '../../../src/testing/fake-adapter.js';
import { useTestHosts } from '../../support/ndfc.js';

// Issue 18 item 2: an owner's /mute <duration> and /unmute for the current chat. While a chat
// is muted its messages are stored as read and never answered; owners' commands still run.

const OWNER = '20001';
const MEMBER = '10001';
const GROUP = '500';
const MINUTE = 60_000;
const BOT = { bot: { timezone: 'UTC' }, permissions: { owners: { test: [OWNER] } } };

const streamOf = (outcome: IngressOutcome): string => (outcome.status === 'stopped' || outcome.status === 'delivered' ? outcome.message!.streamId : '');
const linesLike = (logs: readonly LogRecord[], pattern: RegExp) => logs.filter((record) => pattern.test(String(record['msg'])));

describe('[issue 18] /mute and /unmute in a test host', () => {
  const start = useTestHosts();

  it('[issue 18] a member’s /mute is refused; an owner’s mutes the group: messages stored, not answered, owners’ commands still run, until the mute ends', async () => {
    const test = await start({ botConfig: BOT });
    await test.adapter.send('/mute 30m', { user: MEMBER, group: GROUP });
    await test.settle(1_000);
    expect(test.adapter.texts()).toEqual(['没有权限：/mute 仅限主人使用（你是成员）']);

    const mutedAt = test.clock.now();
    await test.adapter.send('/mute 30m', { user: OWNER, group: GROUP });
    await test.settle(1_000);
    const until = new Date(mutedAt + 30 * MINUTE).toISOString().slice(0, 16).replace('T', ' ');
    expect(test.adapter.texts()[1]).toBe(`本群禁言到 ${until}（UTC）：期间消息只记录不回复，主人的命令照常可用；发送 /unmute 解除`);
    expect(linesLike(test.logs, /^chat .* muted until /)).toHaveLength(1);

    const hello = await test.adapter.send('@Bot 在吗', { user: MEMBER, group: GROUP, mentionsBot: true });
    expect(hello).toMatchObject({ status: 'stopped', reason: `the chat is muted until ${new Date(mutedAt + 30 * MINUTE).toISOString()}` });
    const streamId = streamOf(hello);
    expect(test.host.chat.runtime.silenceOf(streamId)).toEqual({ kind: 'muted', until: mutedAt + 30 * MINUTE, by: OWNER });
    // A member's command and an owner's plain message or unknown /word are silent too.
    expect(await test.adapter.send('/help', { user: MEMBER, group: GROUP })).toMatchObject({ status: 'stopped' });
    expect(await test.adapter.send('@Bot 主人说话', { user: OWNER, group: GROUP, mentionsBot: true })).toMatchObject({ status: 'stopped' });
    expect(await test.adapter.send('/nosuch', { user: OWNER, group: GROUP })).toMatchObject({ status: 'stopped' });
    await test.settle(20_000);
    expect(test.adapter.texts()).toHaveLength(2);
    expect(test.model.calls).toHaveLength(0);
    expect(test.host.chat.database.messages.unread(streamId)).toEqual([]);
    expect(test.host.chat.database.messages.history(streamId, 50).map((message) => message.content)).toEqual(expect.arrayContaining(['@Bot 在吗', '/help']));
    // Per message: a debug line (the ingress's), not an info line.
    expect(linesLike(test.logs, /^a message was not passed to the chatter: the chat is muted/).map((record) => record['level'])).toEqual(['debug', 'debug', 'debug', 'debug']);

    // The owner's commands still run in the muted group.
    await test.adapter.send('/status', { user: OWNER, group: GROUP });
    await test.adapter.send('/help', { user: OWNER, group: GROUP });
    await test.settle(1_000);
    const [status, help] = test.adapter.texts().slice(2);
    expect(status).toContain(`这里禁言到 ${until}（UTC）`);
    expect(status).toContain('账号：没有运行适配器');
    expect(help).toContain('/mute — 在这个聊天里禁言一段时间');
    expect(help).toContain('/unmute — 解除这个聊天的禁言');

    // Other chats are not muted.
    expect(await test.adapter.send('私聊', { user: MEMBER })).toMatchObject({ status: 'delivered' });
    await test.settle(20_000);
    const callsBefore = test.model.calls.length;
    expect(callsBefore).toBeGreaterThan(0);

    // Thirty minutes later the group is answered again.
    await test.settle(30 * MINUTE);
    expect(test.host.chat.runtime.silenceOf(streamId)).toBeUndefined();
    expect(await test.adapter.send('@Bot 现在呢', { user: MEMBER, group: GROUP, mentionsBot: true })).toMatchObject({ status: 'delivered' });
    await test.settle(20_000);
    expect(test.model.calls.length).toBeGreaterThan(callsBefore);
    expect(linesLike(test.logs, /^the mute of chat .* ended$/)).toHaveLength(1);
    expect(test.host.chat.database.chatMutes.get(streamId)).toBeUndefined();
  });

  it('[issue 18] /unmute ends a mute at once and says so when there is none; a bad or too long duration gets the usage line', async () => {
    const test = await start({ botConfig: BOT });
    await test.adapter.send('/unmute', { user: OWNER });
    await test.adapter.send('/mute soon', { user: OWNER });
    await test.adapter.send('/mute 31d', { user: OWNER });
    await test.adapter.send('/mute', { user: OWNER });
    await test.settle(1_000);
    const [none, bad, tooLong, missing] = test.adapter.texts();
    expect(none).toBe('这个私聊没有被禁言');
    expect(bad).toBe('参数 duration 不对：“soon”不是时长，写成 30m、2h、1d、90s、1h30m 或 30分钟\n用法：/mute <duration>');
    expect(tooLong).toBe('参数 duration 不对：最长 30 天\n用法：/mute <duration>');
    expect(missing).toBe('缺少参数 duration\n用法：/mute <duration>');

    await test.adapter.send('/mute 1小时30分钟', { user: OWNER, group: GROUP });
    await test.settle(1_000);
    expect(test.adapter.texts()[4]).toMatch(/^本群禁言到 /);
    expect(await test.adapter.send('@Bot 喂', { user: MEMBER, group: GROUP, mentionsBot: true })).toMatchObject({ status: 'stopped' });
    await test.adapter.send('/unmute', { user: OWNER, group: GROUP });
    await test.settle(1_000);
    expect(test.adapter.texts()[5]).toBe('本群已解除禁言');
    expect(linesLike(test.logs, /^chat .* unmuted$/)).toHaveLength(1);
    expect(await test.adapter.send('@Bot 喂喂', { user: MEMBER, group: GROUP, mentionsBot: true })).toMatchObject({ status: 'delivered' });
    await test.settle(20_000);
    expect(test.model.calls.length).toBeGreaterThan(0);
  });
});

describe('[issue 18] a mute outlives a restart', () => {
  let work: string | undefined;
  afterEach(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
    work = undefined;
  });

  /** A host on `<work>/data` (a real SQLite file): a second one on the same folder is the same bot after a restart. */
  async function startHost(folder: string, clock: ManualClock) {
    const { logger } = createMemoryLogger();
    const model = new ScriptedModel();
    const host = createHost({
      logger,
      clock,
      // Every chance draw wins, so NDFC's probability gate lets the @ through (the system random would fail it 15% of the time).
      random: new SequenceRandom([0]),
      appConfig: {},
      botConfig: { ...BOT, chat: { message_buffer_seconds: 0 } },
      configDir: join(folder, 'config'),
      dataDir: join(folder, 'data'),
      database: 'file',
      pluginRoots: [{ path: join(folder, 'plugins'), builtIn: true }],
      offlineModel: model,
    });
    const adapter = new FakeAdapter(host);
    await host.start();
    return { host, adapter, model };
  }

  async function stop(host: Host, clock: ManualClock): Promise<void> {
    let stopped = false;
    const stopping = host.stop().finally(() => (stopped = true));
    while (!stopped) {
      await clock.advance(500);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await stopping;
  }

  async function settle(clock: ManualClock, ms: number): Promise<void> {
    for (let elapsed = 0; elapsed < ms; elapsed += 50) await clock.advance(50);
    for (let round = 0; round < 3; round += 1) await clock.advance(0);
  }

  it('[issue 18] the mute set before a restart still holds after it, on the same data folder, and ends on time', async () => {
    mkdirSync(join(process.cwd(), '.moonglass-test'), { recursive: true });
    work = mkdtempSync(join(process.cwd(), '.moonglass-test', 'mute-restart-'));
    mkdirSync(join(work, 'plugins'));
    copyBuiltInPlugins(join(work, 'plugins'));
    const clock = new ManualClock(Date.UTC(2026, 11, 1, 12, 0));
    const first = await startHost(work, clock);
    await first.adapter.send('/mute 1h', { user: OWNER, group: GROUP });
    await settle(clock, 1_000);
    expect(first.adapter.texts()).toEqual(['本群禁言到 2026-12-01 13:00（UTC）：期间消息只记录不回复，主人的命令照常可用；发送 /unmute 解除']);
    await stop(first.host, clock);

    await clock.advance(10 * MINUTE);
    const second = await startHost(work, clock);
    try {
      // The second fake adapter counts message ids from 1 again: these come with ids of their own.
      const fromMember = (id: string, content: string) =>
        second.host.receive(
          { platform: 'test', message_id: id, chat_type: 'group', group: { id: GROUP, name: 'group' }, sender: { id: MEMBER, name: 'member' }, content, mentions_bot: true },
          'testing:adapter:fake',
        );
      const muted = await fromMember('after-restart-1', '@Bot 重启了吗');
      expect(muted).toMatchObject({ status: 'stopped' });
      expect(second.host.chat.runtime.silenceOf(streamOf(muted))).toEqual({ kind: 'muted', until: Date.UTC(2026, 11, 1, 13, 0), by: OWNER });
      await settle(clock, 20_000);
      expect(second.model.calls).toHaveLength(0);
      await clock.advance(50 * MINUTE);
      expect(await fromMember('after-restart-2', '@Bot 一小时了')).toMatchObject({ status: 'delivered' });
      await settle(clock, 20_000);
      expect(second.model.calls.length).toBeGreaterThan(0);
    } finally {
      await stop(second.host, clock);
    }
  });
});

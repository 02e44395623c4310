import { afterEach, describe, expect, it } from 'vitest';
import type { AccountGroups } from '../../../src/chat/bot-accounts.js';
import { createOneBotAdapter } from '../../../src/adapters/onebot_v11/adapter.js';
import type { configSchema } from '../../../src/adapters/onebot_v11/config.js';
import { createHost } from '../../../src/app/create-host.js';
import { prepareAdapter } from '../../../src/app/connect-adapter.js';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { OneBotPeer } from '../../support/onebot-peer.js';
import { storedMessages } from '../../support/stored-messages.js';
import { useTempDir } from '../../support/temp-dir.js';
import { until } from '../../support/until.js';
import { createFakeContext } from './fake-adapter-context.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as z from 'zod';

// Issue 17 item 1: bot.toml [accounts."<self id>"] groups = { allow, deny } replaces the
// adapter's [groups] for that account's messages and events; other accounts keep [groups].

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The adapter in reverse mode (in this process) with these per-account groups, and two peers: accounts 10000 and 10001. */
async function twoAccounts(config: z.input<typeof configSchema>, accountGroups: Record<string, AccountGroups>) {
  const fake = createFakeContext({ ...config, mode: 'reverse', reverse: { port: 0 } });
  const adapter = await createOneBotAdapter({ ...fake.context, bot: { ...fake.context.bot, accountGroups } });
  cleanups.push(() => adapter.stop());
  const url = `ws://127.0.0.1:${adapter.listeningPort}/onebot/v11/ws`;
  const peers = ['10000', '10001'].map((selfId) => {
    const peer = new OneBotPeer({ selfId });
    cleanups.push(() => peer.close());
    peer.connectReverse({ url });
    return peer;
  });
  for (const peer of peers) await peer.waitForConnection();
  await fake.waitForStatus((status) => (status.accounts ?? []).filter((account) => account.connected).length === 2, 'both accounts connected');
  return { fake, main: peers[0]!, second: peers[1]! };
}

describe('per-account group lists (bot.toml [accounts."<id>"] groups)', () => {
  it('[issue 17] an account with its own groups obeys them instead of [groups]; an account without keeps [groups]', async () => {
    const { fake, main, second } = await twoAccounts({ groups: { allow: ['30001'] } }, { '10001': { allow: ['30002'], deny: [] } });
    main.pushGroupMessage({ groupId: 30001, message: 'main in 30001' });
    main.pushGroupMessage({ groupId: 30002, message: 'main in 30002' });
    second.pushGroupMessage({ groupId: 30001, message: 'second in 30001' });
    second.pushGroupMessage({ groupId: 30002, message: 'second in 30002' });
    // Private chats are never filtered: markers that the earlier frames were handled.
    main.pushPrivateMessage({ message: 'main marker' });
    second.pushPrivateMessage({ message: 'second marker' });
    await fake.waitForReceived(4);
    await until(() => fake.received.some((envelope) => envelope.content === 'main marker') && fake.received.some((envelope) => envelope.content === 'second marker'), {
      what: 'both markers',
    });
    expect(fake.received.map((envelope) => `${envelope.account}: ${envelope.content}`).sort()).toEqual([
      '10000: main in 30001',
      '10000: main marker',
      '10001: second in 30002',
      '10001: second marker',
    ]);
    const drops = fake.logs.filter((line) => line.level === 'debug' && line.msg.startsWith('OneBot group message dropped'));
    expect(drops.map((line) => [line['account'], line['groupId'], line.msg]).sort()).toEqual([
      ['10000', '30002', 'OneBot group message dropped by [groups] allow/deny'],
      ['10001', '30001', 'OneBot group message dropped by bot.toml [accounts."10001"] groups allow/deny'],
    ]);
  });

  it('[issue 17] an account’s deny list drops its group notices and requests too, while the other account still gets them', async () => {
    const { fake, main, second } = await twoAccounts({}, { '10001': { allow: [], deny: ['30001'] } });
    second.pushNotice({ notice_type: 'group_increase', sub_type: 'approve', group_id: 30001, operator_id: 20002, user_id: 20003 });
    second.pushRequest({ request_type: 'group', sub_type: 'add', group_id: 30001, user_id: 20004, comment: '', flag: 'f-1' });
    main.pushNotice({ notice_type: 'group_increase', sub_type: 'approve', group_id: 30001, operator_id: 20002, user_id: 20005 });
    second.pushNotice({ notice_type: 'friend_add', user_id: 20006 });
    await until(() => fake.events.length >= 2, { what: 'two events' });
    await fake.waitForLog((line) => line.msg === 'OneBot group request dropped by bot.toml [accounts."10001"] groups allow/deny', 'the request dropped');
    expect(fake.events.map((event) => [event.self_id, event.kind === 'notice' ? event.notice.notice_type : event.request.request_type]).sort()).toEqual([
      ['10000', 'group_increase'],
      ['10001', 'friend_add'],
    ]);
  });
});

describe('per-account group lists through the host and the adapter process', () => {
  const tempDir = useTempDir();

  it('[issue 17] bot.toml [accounts."10001"] groups reaches the forked OneBot adapter: its messages obey them, the default account’s obey [groups]', async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'adapters'));
    writeFileSync(
      join(configDir, 'bot.toml'),
      ['[accounts]', 'qq = "10000"', '[accounts."10001"]', 'nickname = "星璃"', 'groups = { allow = [30002] }', ''].join('\n'),
    );
    writeFileSync(join(configDir, 'adapters', 'onebot_v11.toml'), '[reverse]\nport = 0\n[groups]\nallow = ["30001"]\n');
    const { logger, records } = createMemoryLogger('debug');
    const dataDir = join(tempDir(), 'data');
    const host = createHost({ logger, configDir, dataDir, pluginRoots: [] });
    await host.start();
    cleanups.push(() => host.stop());
    const prepared = await prepareAdapter(host, { name: 'onebot_v11' });
    cleanups.push(() => prepared.supervisor.stop());
    await prepared.connect();
    const listening = () => records.find((record) => String(record.msg).startsWith('OneBot reverse mode: listening on '));
    await until(() => listening() !== undefined, { what: 'the listening line' });
    const url = String(listening()!.msg).replace('OneBot reverse mode: listening on ', '');
    const peers = ['10000', '10001'].map((selfId) => {
      const peer = new OneBotPeer({ selfId, waitTimeoutMs: 20_000 });
      cleanups.push(() => peer.close());
      peer.connectReverse({ url });
      return peer;
    });
    for (const peer of peers) await peer.waitForConnection();
    const [main, second] = peers as [OneBotPeer, OneBotPeer];
    main.pushGroupMessage({ groupId: 30001, message: 'main in 30001' });
    main.pushGroupMessage({ groupId: 30002, message: 'main in 30002' });
    second.pushGroupMessage({ groupId: 30001, message: 'second in 30001' });
    second.pushGroupMessage({ groupId: 30002, message: 'second in 30002' });
    main.pushPrivateMessage({ message: 'main marker' });
    second.pushPrivateMessage({ message: 'second marker' });
    const stored = () => storedMessages(dataDir).map((message) => message.content);
    await until(() => stored().includes('main marker') && stored().includes('second marker'), { what: 'both markers stored', timeoutMs: 20_000 });
    expect(stored().sort()).toEqual(['main in 30001', 'main marker', 'second in 30002', 'second marker']);
  }, 30_000);
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { messageRecord, streamRecord } from '../storage/storage-fixtures.js';
import { type BotProcess, useBotProcesses } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { OneBotPeer } from '../support/onebot-peer.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// A real bot (the CLI in a child process) with the OneBot adapter and its web console, and
// loopback peers playing the bot's QQ accounts. Its database starts with one conversation of
// an account that does not connect this time (10009: two messages in, one out).

export const NICKNAME = '小镜';
/** Account 10002's own name (bot.toml [accounts."10002"]). */
export const SECOND_NICKNAME = '小湖';
export const OFFLINE_ACCOUNT = '10009';
export const OFFLINE_STREAM = 'stream-of-10009';
const TOKEN = 'accounts-token';
// Replies are typed quickly.
const NDFC_CONFIG = '[plugin]\ntyping_delay_per_char = 0.01\n';

export interface AccountsBot {
  bot: BotProcess;
  /** The console's address, e.g. http://127.0.0.1:PORT, and its token. */
  consoleBase: string;
  consoleToken: string;
  /** Calls the console API with the token. */
  api(path: string): Promise<unknown>;
  /** A peer that connects as `selfId` and waits until the adapter took the connection. */
  connect(selfId: string): Promise<OneBotPeer>;
}

/** Starts bots as described above; the peers close after each test (the processes are killed by useBotProcesses). */
export function useAccountsBots(): () => Promise<AccountsBot> {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();
  const peers: OneBotPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.close();
  });
  return async () => {
    const cwd = tempDir();
    seedOfflineAccount(join(cwd, 'data'));
    const port = await freePort();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), `[platform]\nadapter = "onebot_v11"\n[bot]\nnickname = "${NICKNAME}"\n[accounts]\nqq = "10000"\n[accounts."10002"]\nnickname = "${SECOND_NICKNAME}"\n`);
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `access_token = "${TOKEN}"\n[reverse]\nport = ${port}\n`);
    const bot = run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd, pluginConfigs: { neo_default_chatter: NDFC_CONFIG } });
    const listening = await bot.waitForLog(/^OneBot reverse mode: listening on /, 30_000);
    const url = String(listening['msg']).replace('OneBot reverse mode: listening on ', '');
    const consoleLine = String((await bot.waitForLog(/^web console: /, 30_000))['msg']);
    const consoleUrl = new URL(consoleLine.replace('web console: ', ''));
    const consoleToken = new URLSearchParams(consoleUrl.hash.slice(1)).get('token')!;
    const consoleBase = consoleUrl.origin;
    await bot.waitForLog(/^ready in/, 30_000);
    return {
      bot,
      consoleBase,
      consoleToken,
      api: async (path) => (await fetch(`${consoleBase}/api${path}`, { headers: { authorization: `Bearer ${consoleToken}` } })).json(),
      connect: async (selfId) => {
        const peer = new OneBotPeer({ selfId, waitTimeoutMs: 30_000 });
        peers.push(peer);
        peer.connectReverse({ url, token: TOKEN });
        await peer.waitForConnection();
        return peer;
      },
    };
  };
}

/** What an earlier run left: a group conversation of account 10009 with two messages in and one out. */
function seedOfflineAccount(dataDir: string): void {
  const database = openDatabase({ file: join(dataDir, 'moonglass.db'), logger: createMemoryLogger().logger });
  // An hour ago: recent enough that retention keeps it.
  const time = Math.floor(Date.now() / 1000) - 3600;
  try {
    database.streams.upsert(streamRecord({ streamId: OFFLINE_STREAM, groupId: '555', groupName: '旧群', account: OFFLINE_ACCOUNT, createdAt: time, lastActiveAt: time }));
    for (const messageId of ['old-1', 'old-2']) database.messages.insertInbound(messageRecord({ streamId: OFFLINE_STREAM, messageId, time, extra: { group_id: '555' } }));
    // Read: the bot does not try to answer them on an account that is not there.
    database.messages.markRead(OFFLINE_STREAM, ['old-1', 'old-2']);
    database.messages.insertOutbound(messageRecord({ streamId: OFFLINE_STREAM, messageId: 'old-reply', direction: 'outbound', time, senderId: OFFLINE_ACCOUNT, senderName: NICKNAME }));
  } finally {
    database.close();
  }
}

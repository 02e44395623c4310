import { describe, expect, it } from 'vitest';
import { NOT_CONNECTED_SINCE_START } from '../../src/admin/account-overview.js';
import { NICKNAME, SECOND_NICKNAME, OFFLINE_ACCOUNT, OFFLINE_STREAM, useAccountsBots } from './accounts-fixture.js';

// Issue 17 item 5 over real HTTP: a bot process with the OneBot adapter, two QQ accounts
// connected through loopback peers and a third known only from the stored conversations.

interface Overview {
  accounts: { selfId: string; nickname: string; connected: boolean; detail: string | null; inbound: number; outbound: number; streams: number }[];
}
interface Conversations {
  conversations: { streamId: string; userId: string | null; account: string | null; accountNickname: string | null }[];
}

describe('the web console’s accounts', () => {
  const startBot = useAccountsBots();

  it('[issue 17] the overview lists each account with its nickname, connection and message counts (one only stored: offline); conversations name their account', async () => {
    const { api, connect } = await startBot();
    const first = await connect('10000');
    const second = await connect('10002');
    first.pushPrivateMessage({ userId: 42, nickname: '阿明', message: '你好' });
    await first.waitForAction('send_private_msg');
    second.pushPrivateMessage({ userId: 43, nickname: '阿红', message: '在吗' });
    await second.waitForAction('send_private_msg');

    // The bot's reply is stored once the platform confirmed it: poll.
    const accounts = async () => ((await api('/overview')) as Overview).accounts;
    await expect
      .poll(accounts, { timeout: 15_000 })
      .toEqual([
        { selfId: '10000', nickname: NICKNAME, connected: true, detail: expect.stringContaining('10000'), inbound: 1, outbound: 1, streams: 1 },
        { selfId: '10002', nickname: SECOND_NICKNAME, connected: true, detail: expect.stringContaining('10002'), inbound: 1, outbound: 1, streams: 1 },
        { selfId: OFFLINE_ACCOUNT, nickname: NICKNAME, connected: false, detail: NOT_CONNECTED_SINCE_START, inbound: 2, outbound: 1, streams: 1 },
      ]);

    const { conversations } = (await api('/conversations')) as Conversations;
    const owners = conversations.map((stream) => [stream.streamId === OFFLINE_STREAM ? 'offline group' : stream.userId, stream.account, stream.accountNickname]);
    expect(owners.sort()).toEqual([
      ['42', '10000', NICKNAME],
      ['43', '10002', SECOND_NICKNAME],
      ['offline group', OFFLINE_ACCOUNT, NICKNAME],
    ]);

    // An account whose connection closes stays listed, offline, with its counts.
    await second.close();
    await expect
      .poll(async () => (await accounts()).find((account) => account.selfId === '10002'), { timeout: 15_000 })
      .toEqual({ selfId: '10002', nickname: SECOND_NICKNAME, connected: false, detail: expect.any(String), inbound: 1, outbound: 1, streams: 1 });
    expect((await accounts()).map((account) => [account.selfId, account.connected])).toEqual([
      ['10000', true],
      ['10002', false],
      [OFFLINE_ACCOUNT, false],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { NICKNAME, OFFLINE_ACCOUNT, useAccountsBots } from './accounts-fixture.js';

// A real browser (Debian's headless Chromium) on the console of a real bot process: account
// 10000 connected through a loopback OneBot peer, 10009 known only from stored conversations.

describe('the web console’s accounts in a browser', () => {
  const browser = useBrowser();
  const startBot = useAccountsBots();

  it('[issue 17] the overview shows each account, connected or offline, with its counts; a conversation shows its account', async () => {
    const { api, connect, consoleBase, consoleToken } = await startBot();
    const peer = await connect('10000');
    peer.pushPrivateMessage({ userId: 42, nickname: '阿明', message: '你好' });
    await peer.waitForAction('send_private_msg');
    // The reply is stored once the platform confirmed it.
    const outbound = async () => ((await api('/overview')) as { accounts: { selfId: string; outbound: number }[] }).accounts.find((account) => account.selfId === '10000')?.outbound;
    await expect.poll(outbound, { timeout: 15_000 }).toBe(1);

    const page = await browser.newPage();
    try {
      await page.goto(`${consoleBase}/#token=${consoleToken}`);
      await page.waitForSelector('#accounts');
      const rows = await page.$$eval('#accounts tr[data-account]', (cells) => cells.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.innerText.replace(/\s+/g, ' ').trim())));
      expect(rows).toEqual([
        ['10000', NICKNAME, expect.stringMatching(/^connected /), '1 / 1', '1'],
        [OFFLINE_ACCOUNT, NICKNAME, 'offline not connected since the host started', '2 / 1', '1'],
      ]);

      await page.click('a[data-page="conversations"]');
      await page.waitForSelector('text=阿明');
      const account = await page.innerText('tr:has-text("阿明") [data-field="account"]');
      expect(account.replace(/\s+/g, ' ').trim()).toBe(`10000 ${NICKNAME}`);
    } finally {
      await page.close();
    }
  });
});

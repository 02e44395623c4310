import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import type { TestHost } from '../../src/testing/create-test-host.js';
import { useConsoles } from '../support/admin.js';
import { textReply, toolReply } from '../support/ndfc.js';

// Issue 15, item 14, in a real browser (Debian's headless Chromium) against the real console.

const NDFC = 'neo_default_chatter';

/** Moves the host's manual clock in small steps until `done` holds on the page (the page polls on wall time). */
async function settleUntil(test: TestHost, done: () => Promise<boolean>): Promise<void> {
  for (let step = 0; step < 100 && !(await done()); step += 1) {
    await test.settle(500);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const lines = (page: Page) => page.$$eval('#sandbox-log .line', (rows) => rows.map((row) => row.textContent ?? ''));

describe('the web console in a browser, issue 15 item 14', () => {
  const browser = useBrowser();
  const startConsole = useConsoles();
  const pages: Page[] = [];
  afterEach(async () => {
    while (pages.length > 0) await pages.pop()!.close();
  });
  async function open(port: number, token: string): Promise<Page> {
    const page = await browser.newPage();
    pages.push(page);
    await page.goto(`http://127.0.0.1:${port}/#token=${token}`);
    await page.waitForSelector('text=Messages today');
    return page;
  }

  it('[issue 15] switching off the chatter asks first; the overview and the sandbox warn while none runs; a message sent meanwhile is answered once it is back', async () => {
    const { test, server } = await startConsole();
    const page = await open(server.port, server.token);
    expect(await page.$('#no-chatter')).toBeNull();

    const questions: string[] = [];
    let accept = false;
    page.on('dialog', (dialog) => {
      questions.push(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });
    await page.click('a[data-page="plugins"]');
    await page.click(`button[data-toggle="${NDFC}"]`);
    await expect.poll(() => questions.length).toBe(1);
    expect(questions[0]).toMatch(/^neo_default_chatter answers messages \(neo_default_chatter:chatter:neo_default_chatter\)\. No chatter will run/);
    // Cancelled: nothing changed.
    expect(test.host.plugins.get(NDFC)).toBeDefined();
    expect(await page.textContent(`[data-plugin="${NDFC}"]`)).toContain('loaded');

    accept = true;
    await page.click(`button[data-toggle="${NDFC}"]`);
    await expect.poll(() => page.textContent(`[data-plugin="${NDFC}"]`)).toContain('disabled');
    expect(questions).toHaveLength(2);
    expect(test.host.plugins.get(NDFC)).toBeUndefined();

    await page.click('a[data-page="overview"]');
    await page.waitForSelector('#no-chatter');
    expect(await page.textContent('#no-chatter')).toContain('No chatter is running: messages are stored but nobody answers them.');

    await page.click('a[data-page="sandbox"]');
    await page.waitForSelector('#sandbox-warning #no-chatter');
    await page.fill('#sandbox-text', '关着的时候说的');
    await page.click('#sandbox-form button[type=submit]');
    await page.waitForSelector('[data-from="user"]');
    await test.settle(120_000); // long past the first retries of the failed runs
    expect(await page.$('[data-from="bot"]')).toBeNull();

    // Switching on asks nothing; the warning goes; the waiting message is answered.
    await page.click('a[data-page="plugins"]');
    await page.click(`button[data-toggle="${NDFC}"]`);
    await expect.poll(() => page.textContent(`[data-plugin="${NDFC}"]`)).toContain('loaded');
    expect(questions).toHaveLength(2);
    await page.click('a[data-page="overview"]');
    await page.waitForSelector('text=Messages today');
    expect(await page.$('#no-chatter')).toBeNull();
    await page.click('a[data-page="sandbox"]');
    await page.waitForSelector('[data-from="user"]');
    await settleUntil(test, async () => (await page.$('[data-from="bot"]')) !== null);
    expect(await lines(page)).toEqual(['[private] you: 关着的时候说的', '[private] bot: （演示模型）收到：关着的时候说的']);
    expect(await page.$('#sandbox-warning #no-chatter')).toBeNull();
  });

  it('[issue 15] the sandbox shows each line once, also when the console answers slower than the page polls', async () => {
    const { test, server } = await startConsole();
    const page = await open(server.port, server.token);
    // After the first, every poll takes 1.2 s: longer than the page's 500 ms between polls.
    let polls = 0;
    let answered = 0;
    await page.route('**/api/sandbox?*', async (route) => {
      polls += 1;
      if (polls > 1) await new Promise((resolve) => setTimeout(resolve, 1_200));
      await route.continue();
      answered += 1;
    });
    await page.click('a[data-page="sandbox"]');
    await page.waitForSelector('#sandbox-form');
    for (const text of ['第一句', '第二句']) {
      await page.fill('#sandbox-text', text);
      await page.click('#sandbox-form button[type=submit]');
      await settleUntil(test, async () => (await lines(page)).some((line) => line.endsWith(`收到：${text}`)));
    }
    // Let every poll in flight land before counting.
    const settled = answered;
    await expect.poll(() => answered, { timeout: 10_000 }).toBeGreaterThanOrEqual(settled + 3);
    expect(await lines(page)).toEqual([
      '[private] you: 第一句',
      '[private] bot: （演示模型）收到：第一句',
      '[private] you: 第二句',
      '[private] bot: （演示模型）收到：第二句',
    ]);
  });

  it('[issue 15] traces list conversations by name and show a turn per answer: the tools with arguments and results, the skipped repeat, and the prompt sent', async () => {
    const { test, server } = await startConsole({
      script: (call) => {
        const last = call.payloads.at(-1)!;
        if (last.role !== 'user') return textReply('');
        if (JSON.stringify(last.content).includes('帮我记一下')) {
          return toolReply([
            { name: 'send_text', args: { content: '好的' } },
            { name: 'send_text', args: { content: '好的' } },
          ]);
        }
        return toolReply([{ name: 'send_text', args: { content: '第二句' } }]);
      },
    });
    await test.adapter.send('帮我记一下');
    await test.settle(15_000);
    await test.adapter.send('再说一句');
    await test.settle(15_000);
    const page = await open(server.port, server.token);
    await page.click('a[data-page="traces"]');
    await page.waitForSelector('#trace-streams');
    expect(await page.textContent('#trace-streams a')).toBe('user 10001');
    expect(await page.textContent('#trace-streams [data-stream]')).toContain('test · private');
    await page.click('#trace-streams a');
    await page.waitForSelector('[data-turn]');
    expect(await page.textContent('h2')).toBe('Traces of user 10001');

    const turns = await page.$$eval('details[data-turn]', (nodes) => nodes.map((node) => ({ open: node.hasAttribute('open'), title: node.querySelector('summary')?.textContent ?? '' })));
    expect(turns).toHaveLength(2);
    expect(turns[0]!.open).toBe(true);
    expect(turns[0]!.title).toMatch(/woken by message, 1 unread — tools: send_text — ended: wait$/);
    expect(turns[1]!.title).toMatch(/woken by new, 1 unread — tools: send_text, send_text \(duplicate\) — ended: wait$/);

    const older = page.locator('details[data-turn]').nth(1);
    await older.locator('summary').first().click();
    const calls = await older.locator('tr.tool-call').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].slice(0, 3).map((cell) => cell.textContent)));
    expect(calls).toEqual([
      ['send_text', '{"content":"好的"}', '已发送'],
      ['send_text', '{"content":"好的"}', '⚠ duplicate, skipped: the same call already ran in this turn'],
    ]);
    expect(await older.locator('.model-call p').first().textContent()).toMatch(/^Model offline-demo answered actor in \d+ ms$/);
    const prompt = older.locator('details.prompt');
    expect(await prompt.locator('summary').textContent()).toMatch(/^Prompt sent to the model \(2 messages, \d+ characters\)$/);
    await prompt.locator('summary').click();
    expect(await prompt.locator('.prompt-line[data-role="user"] pre').textContent()).toContain('帮我记一下');
    expect(await prompt.locator('.prompt-line[data-role="system"] pre').isVisible()).toBe(true);
  });
});

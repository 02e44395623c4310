// Issue 16, item 4, in a real browser (Debian's headless Chromium): the console's Plugins →
// Market page of a real `moonglass start` whose npm uses a loopback registry (Verdaccio).
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { useBotProcesses } from '../support/bot-process.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { type LoopbackRegistry, startLoopbackRegistry } from '../support/verdaccio.js';
import { closedRegistryUrl, publishShout, SHOUT, startBotWithConsole, writeBotProject } from './plugin-market-fixtures.js';

describe('the web console plugin market in a browser', () => {
  const browser = useBrowser();
  const run = useBotProcesses();
  const workDir = useProjectTempDir();
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanup.length > 0) await cleanup.pop()!();
  });

  async function openMarket(url: string): Promise<Page> {
    const page = await browser.newPage();
    cleanup.push(() => page.close());
    await page.goto(url);
    await page.waitForSelector('text=Messages today');
    await page.click('a[data-page="plugins"]');
    await page.click('.tabs a[href="#market"]');
    await page.waitForSelector('#market-search');
    return page;
  }

  async function searchFor(page: Page, words: string): Promise<void> {
    await page.fill('#market-words', words);
    await page.click('#market-search button[type=submit]');
  }

  it('[issue 16] search the registry, install from the page with the progress shown, see the plugin loaded in the Plugins list, then remove it', async () => {
    const registry: LoopbackRegistry = await startLoopbackRegistry();
    cleanup.push(() => registry.close());
    const dir = workDir();
    await publishShout(registry, dir, '1.0.0');
    const project = join(dir, 'bot');
    writeBotProject(project, registry.url);
    const { url } = await startBotWithConsole(run, project, registry.url);
    const page = await openMarket(url);

    await searchFor(page, 'shout');
    const row = `#market-table tr[data-package="${SHOUT}"]`;
    await page.waitForSelector(row);
    const cells = await page.$$eval(`${row} td`, (tds) => tds.map((td) => td.textContent));
    expect(cells.slice(0, 5)).toEqual([SHOUT, '1.0.0', 'shouts what you say', 'compatible (host_application 0.1.0..0.1.99)', 'not installed']);

    await page.click(`${row} button[data-action="install"]`);
    // The first lines show while npm still works (installing and checking take seconds).
    await page.waitForSelector('#market-progress .market-line');
    expect(await page.getAttribute('#market-summary', 'data-state')).toBeNull();
    expect(await page.$$eval('#market-table button', (buttons) => buttons.every((button) => (button as unknown as { disabled: boolean }).disabled))).toBe(true);
    await page.waitForSelector('#market-summary[data-state="succeeded"]', { timeout: 150_000 });
    const lines = await page.$$eval('#market-progress .market-line', (nodes) => nodes.map((node) => node.textContent));
    expect(lines).toContain(`loading ${SHOUT} 1.0.0 into the running host`);
    expect(lines).toContain('demo.shout 1.0.0 loaded');
    // The results are searched again: now installed, with its plugin loaded.
    await expect.poll(() => page.textContent(`${row} [data-field="installed"]`), { timeout: 60_000 }).toBe('1.0.0demo.shout: loaded');

    await page.click('#market-summary a[href="#plugins"]');
    await page.waitForSelector('[data-plugin="demo.shout"]');
    expect(await page.textContent('[data-plugin="demo.shout"]')).toContain('loaded');
    expect(await page.textContent('[data-plugin="demo.shout"]')).toContain('demo.shout:tool:shout_text');

    await page.click('.tabs a[href="#market"]');
    await searchFor(page, 'shout');
    await page.click(`${row} button[data-action="remove"]`);
    await page.waitForSelector('#market-summary[data-state="succeeded"]', { timeout: 150_000 });
    expect(await page.$$eval('#market-progress .market-line', (nodes) => nodes.map((node) => node.textContent))).toContain('unloading demo.shout from the running host');
    await expect.poll(() => page.textContent(`${row} [data-field="installed"]`), { timeout: 60_000 }).toBe('not installed');
    await page.click('a[data-page="plugins"]');
    await page.waitForSelector('[data-plugin="neo_default_chatter"]');
    expect(await page.$('[data-plugin="demo.shout"]')).toBeNull();
  }, 300_000);

  it('[issue 16] with the registry unreachable the market page names it and says installed plugins keep working; the other pages still work', async () => {
    const offline = await closedRegistryUrl();
    const project = join(workDir(), 'bot');
    writeBotProject(project, offline);
    const { url } = await startBotWithConsole(run, project, offline);
    const page = await openMarket(url);

    // Words no test searches for elsewhere: npm's shared cache has no answer for them to fall back on.
    await searchFor(page, 'never-cached-words');
    await page.waitForSelector('#market-offline');
    const message = await page.textContent('#market-offline');
    expect(message).toMatch(new RegExp(`^The registry ${offline.replaceAll('.', '\\.')} cannot be reached: .+\\. Installed plugins keep working; search again once the network is back\\.$`));
    await page.click('.tabs a[href="#plugins"]');
    await page.waitForSelector('[data-plugin="neo_default_chatter"]');
    await page.click('a[data-page="overview"]');
    await page.waitForSelector('text=Messages today');
  }, 120_000);
});

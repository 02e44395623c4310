import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** What the browser tests need of the headless Chromium they share. */
export interface TestBrowser {
  newPage(): Promise<Page>;
}

/**
 * One headless Chromium (Debian's `/usr/bin/chromium`) for the tests of a `describe`: launched
 * before them, closed after. Call it at the top of the `describe`.
 */
export function useBrowser(): TestBrowser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    newPage: () => {
      if (browser === undefined) throw new Error('useBrowser(): the browser is launched in beforeAll; call newPage() inside a test');
      return browser.newPage();
    },
  };
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { useConsoles } from '../support/admin.js';
import { RULES_BOT_CONFIG, RULES_BOT_TOML, writeRulesBotToml } from './rules-fixture.js';

// Issue 18 item 3 on the console's Rules page, in a real browser: the rules of bot.toml,
// an edit saved into the file (the rest of it unchanged), a bad value shown with its field.

describe('the Rules page', () => {
  const browser = useBrowser();
  const startConsole = useConsoles();

  it('[issue 18.3] [admin] shows the rules of bot.toml; a frequency edited and saved lands in the file with the rest unchanged; a bad value shows the error by field', async () => {
    const { test, server } = await startConsole({ botConfig: RULES_BOT_CONFIG });
    const file = writeRulesBotToml(test);
    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${server.port}/`);
      await page.fill('#token', server.token);
      await page.click('#login button');
      await page.waitForSelector('text=Messages today');
      await page.click('a[data-page="rules"]');
      await page.waitForSelector('#rules-table');
      expect(await page.$('#rules-not-in-use')).toBeNull(); // the file holds the rules that run
      expect(await page.textContent('#rules-table [data-rule="study"] [data-field="matches"]')).toBe('groups: 100');
      expect(await page.textContent('#rules-table [data-rule="study"] [data-field="settings"]')).toBe('frequency: 0.5');
      expect(await page.textContent('#rules-table [data-rule="rules[2]"] [data-field="matches"]')).toBe('hours: 23:00-07:00');
      expect(await page.textContent('#rules-table [data-rule="rules[2]"] [data-field="settings"]')).toBe('quiet: true');

      const json = await page.inputValue('#rules-json');
      expect(json).toContain('"frequency": 0.5');
      await page.fill('#rules-json', json.replace('"frequency": 0.5', '"frequency": 0.25'));
      await page.click('#rules-save');
      await page.waitForSelector('#rules-status .notice');
      expect(await page.textContent('#rules-table [data-rule="study"] [data-field="settings"]')).toBe('frequency: 0.25');
      const saved = RULES_BOT_TOML.replace('frequency = 0.5\n', 'frequency = 0.25\n');
      expect(readFileSync(file, 'utf8')).toBe(saved);
      expect(test.host.chat.rules.list()[0]).toMatchObject({ name: 'study', frequency: 0.25 });

      await page.fill('#rules-json', (await page.inputValue('#rules-json')).replace('"frequency": 0.25', '"frequency": -1'));
      await page.click('#rules-save');
      await page.waitForSelector('#rules-errors li');
      expect(await page.getAttribute('#rules-errors li', 'data-field')).toBe('rules.0.frequency');
      expect(await page.textContent('#rules-errors li')).toBe('rules.0.frequency: must be 0 or more (1: the reply chance as configured)');
      expect(readFileSync(file, 'utf8')).toBe(saved);
    } finally {
      await page.close();
    }
  });
});

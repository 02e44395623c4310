import { afterEach, describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { completion, FakeOpenAiServer } from '../llm/support/fake-openai-server.js';
import { useConsoles } from '../support/admin.js';

// Issue 18 item 4 on the console's Usage page, in a real browser: today's tokens per task and,
// with a daily token budget, the share spent.

describe('the Usage page shows the daily token budgets', () => {
  const browser = useBrowser();
  const startConsole = useConsoles();
  const servers: FakeOpenAiServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('[limits] [admin] "412 / 500 (82%)" for a task with a budget of 500 after the provider reported 412 tokens', async () => {
    const server = await FakeOpenAiServer.start();
    servers.push(server);
    server.reply(
      completion(
        { content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'send_text', arguments: JSON.stringify({ content: '好的' }) } }] },
        'tool_calls',
        { prompt_tokens: 312, completion_tokens: 100, total_tokens: 412 },
      ),
    );
    const { test, server: console } = await startConsole({
      modelsConfig: {
        providers: { local: { base_url: server.baseUrl, api_key: '', timeout_s: 10, max_retries: 0 } },
        models: { main: { provider: 'local', model: 'test-model' } },
        tasks: { actor: { models: ['main'], daily_token_budget: 500 } },
      },
      botConfig: { bot: { timezone: 'UTC' } },
      pluginConfigs: { neo_default_chatter: '[plugin]\ntyping_delay_per_char = 0\ntyping_delay_max_seconds = 0\n' },
    });
    await test.adapter.send('你好');
    const deadline = Date.now() + 15_000;
    while (test.adapter.sent.length === 0 && Date.now() < deadline) {
      await test.settle(0);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(test.adapter.texts()).toEqual(['好的']);

    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${console.port}/`);
      await page.fill('#token', console.token);
      await page.click('#login button');
      await page.waitForSelector('text=Messages today');
      await page.click('a[data-page="usage"]');
      await page.waitForSelector('#usage-today');
      expect(await page.textContent('#usage-today h3, section h3')).toBe('Today (2026-01-01, UTC)');
      expect(await page.textContent('#usage-today [data-task="actor"]')).toBe('actor412 / 500 (82%)');
    } finally {
      await page.close();
    }
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { SECRET_PLUGIN, secretPluginConfig, useConsoles } from '../support/admin.js';

// A real browser (Debian's headless Chromium, installed by .ci/run) drives the real console.

const SECRET = 'sk-live-browser-9876543210';

describe('the web console in a browser', () => {
  const browser = useBrowser();
  const startConsole = useConsoles();
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanup.length > 0) await cleanup.pop()!();
  });

  it('[admin] log in with the token, see a field’s validation error beside it, save, and find the change on disk and in the running plugin', async () => {
    const { test, server } = await startConsole({ plugins: [SECRET_PLUGIN], pluginConfigs: secretPluginConfig(SECRET) });
    const page = await browser.newPage();
    cleanup.push(() => page.close());

    // Without the token: the login form; a wrong token is refused.
    await page.goto(`http://127.0.0.1:${server.port}/`);
    await page.fill('#token', 'wrong');
    await page.click('#login button');
    await expect.poll(() => page.textContent('#login-error')).toBe('That token was not accepted.');
    await page.fill('#token', server.token);
    await page.click('#login button');
    await page.waitForSelector('text=Messages today');

    await page.click('text=Plugins');
    await page.waitForSelector('[data-plugin="fixture.secret-settings"]');
    await page.click('a[href="#config/fixture.secret-settings"]');
    await page.waitForSelector('#config-form');
    expect(await page.textContent('[data-field="api_key"]')).toContain('secret: set');
    expect(await page.inputValue('#field-api_key')).toBe('');
    expect(await page.textContent('[data-field="daily_limit"]')).toContain('Requests per day, 1 to 100');

    await page.fill('#field-daily_limit', '500');
    await page.click('#config-form button[type=submit]');
    await expect.poll(() => page.textContent('#error-daily_limit')).toMatch(/100/);
    expect(readFileSync(join(test.host.plugins.list().find((status) => status.id === 'fixture.secret-settings')!.folder, 'config.toml'), 'utf8')).toMatch(/daily_limit = 10/);

    await page.fill('#field-daily_limit', '42');
    await page.selectOption('#field-mode', 'careful');
    await page.click('#config-form button[type=submit]');
    await expect.poll(() => page.textContent('#save-result')).toBe('Saved. The plugin is now loaded.');
    const disk = readFileSync(join(test.host.plugins.list().find((status) => status.id === 'fixture.secret-settings')!.folder, 'config.toml'), 'utf8');
    expect(disk).toMatch(/daily_limit = 42/);
    expect(disk).toMatch(/mode = "careful"/);
    expect(disk).toContain(SECRET); // the empty secret box kept the value on disk
    expect(test.host.plugins.get('fixture.secret-settings')!.config).toMatchObject({ daily_limit: 42, mode: 'careful' });
    expect(await page.content()).not.toContain(SECRET);
    expect(JSON.stringify(test.logs)).not.toContain(SECRET);

    // A conversation shows up on the conversations page and its model calls on the usage charts.
    await test.adapter.send('你好');
    await test.settle(15_000);
    await page.click('a[data-page="conversations"]');
    await page.waitForSelector('a[href^="#messages/"]');
    await page.click('a[href^="#messages/"]');
    await page.waitForSelector('text=（演示模型）收到：你好');
    await page.click('a[data-page="usage"]');
    await page.waitForSelector('#chart-calls rect');
    expect(await page.textContent('#usage-table')).toContain('actor');

    // Enable and disable from the plugins page: the switched-off example loads, then unloads.
    await page.click('a[data-page="plugins"]');
    await page.click('button[data-toggle="example.hello-yueli"]');
    await expect.poll(() => page.textContent('[data-plugin="example.hello-yueli"]')).toContain('loaded');
    expect(test.host.tools.get('hello_yueli')).toBeDefined();
    await page.click('button[data-toggle="example.hello-yueli"]');
    await expect.poll(() => page.textContent('[data-plugin="example.hello-yueli"]')).toContain('disabled');
    expect(test.host.tools.get('hello_yueli')).toBeUndefined();
  });

  it('[admin] the sandbox: chat with the bot in the browser as a private user and watch the phase change', async () => {
    const { test, server } = await startConsole({ botConfig: { chat: { message_buffer_seconds: 0 } } as never });
    const page = await browser.newPage();
    cleanup.push(() => page.close());
    await page.goto(`http://127.0.0.1:${server.port}/#token=${server.token}`);
    await page.waitForSelector('text=Messages today');
    await page.click('a[data-page="sandbox"]');
    await page.waitForSelector('#sandbox-form');
    await page.fill('#sandbox-text', '在吗');
    await page.click('#sandbox-form button[type=submit]');
    await page.waitForSelector('[data-from="user"]');
    // The manual clock moves the typing delay along; the page polls and shows the reply.
    for (let step = 0; step < 100 && (await page.$('[data-from="bot"]')) === null; step += 1) {
      await test.settle(500);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await page.textContent('[data-from="bot"]')).toBe('[private] bot: （演示模型）收到：在吗');
    await expect.poll(() => page.textContent('#sandbox-phase')).toMatch(/private (WAIT_USER|MODEL_TURN|FOLLOW_UP|TOOL_EXEC)/);
    expect(test.adapter.sent).toEqual([]); // the sandbox's replies never reach the platform adapter
  });

  it('[admin] traces: a turn shows the events, each handler’s plugin, weight and outcome (one below a STOP as not reached) and the model call', async () => {
    const { test, server } = await startConsole();
    // An author's handler that replaces a default (STOP) above NDFC's own (weight 0).
    test.host.bus.subscribe('neo_default_chatter:session_transition' as never, ((_event: string, params: Record<string, unknown>) => [EventDecision.STOP, params]) as never, {
      weight: 10,
      label: 'my_transition_log',
      owner: 'my_plugin',
    });
    await test.adapter.send('你好');
    await test.settle(15_000);
    const page = await browser.newPage();
    cleanup.push(() => page.close());
    await page.goto(`http://127.0.0.1:${server.port}/#token=${server.token}`);
    await page.waitForSelector('text=Messages today');
    await page.click('a[data-page="traces"]');
    await page.click('a[href^="#traces/"]');
    await page.waitForSelector('[data-turn]');
    const fetchRows = await page.$$eval('details[data-turn] tr', (rows) => rows.map((row) => row.textContent ?? ''));
    expect(fetchRows.some((row) => row.includes('my_transition_log') && row.includes('my_plugin') && row.includes('STOP'))).toBe(true);
    expect(fetchRows.some((row) => row.includes('session_transition_default') && row.includes('not reached'))).toBe(true);
    expect(fetchRows.some((row) => row.includes('fetch_unreads_default') && row.includes('neo_default_chatter') && row.includes('SUCCESS'))).toBe(true);
    expect(fetchRows.some((row) => row.includes('after_llm_request') && row.includes('model offline-demo answered actor'))).toBe(true);
  });
});

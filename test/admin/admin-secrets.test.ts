import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { describeConfigForm } from '../../src/admin/config-form.js';
import { PluginConfig } from '../../src/plugin-system/config/plugin-config.js';
import { secret, secretFields } from '../../src/plugin-system/config/secret.js';
import { SECRET_PLUGIN, useConsoles } from '../support/admin.js';

/** A secret on disk that the fixture's model rejects (a number where a string is wanted). */
const INVALID_SECRET = '98765432123';
const CONFIG = `[plugin]\nenabled = true\napi_key = ${INVALID_SECRET}\ndaily_limit = 10\nmode = "fast"\n`;
const PLUGIN = '/plugins/fixture.secret-settings';

describe('the web console with a secret on disk that does not validate (issue 13 item 8)', () => {
  const startConsole = useConsoles();

  async function start() {
    const console = await startConsole({ plugins: [SECRET_PLUGIN], pluginConfigs: { 'secret-settings': CONFIG } });
    const folder = console.test.host.plugins.list().find((status) => status.id === 'fixture.secret-settings')!.folder;
    const call = async (path: string, init?: RequestInit) => {
      const response = await console.api(path, init);
      const text = await response.text();
      expect(text).not.toContain(INVALID_SECRET);
      return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
    };
    return { ...console, call, read: () => readFileSync(join(folder, 'config.toml'), 'utf8') };
  }

  it('[admin] switches the plugin off and on again, changing only the switch in the file', async () => {
    const { test, call, read } = await start();
    expect(test.host.plugins.list().find((status) => status.id === 'fixture.secret-settings')).toMatchObject({ state: 'loaded' });
    const off = await call(`${PLUGIN}/enabled`, { method: 'POST', body: JSON.stringify({ enabled: false }) });
    expect(off).toEqual({ status: 200, body: { saved: true, state: 'disabled', reason: expect.any(String), warnings: [] } });
    expect(read()).toBe(CONFIG.replace('enabled = true', 'enabled = false'));
    const on = await call(`${PLUGIN}/enabled`, { method: 'POST', body: JSON.stringify({ enabled: true }) });
    expect(on).toMatchObject({ status: 200, body: { saved: true, state: 'loaded' } });
    expect(read()).toBe(CONFIG);
    expect(JSON.stringify(test.logs)).not.toContain(INVALID_SECRET);
    expect(test.logs).toContainEqual(expect.objectContaining({ level: 'warn', field: 'api_key', actual: '(secret)' }));
  });

  it('[admin] saves the form with the secret left empty: the file keeps it, the answer names it without its value', async () => {
    const { test, call, read } = await start();
    const saved = await call(`${PLUGIN}/config`, { method: 'PUT', body: JSON.stringify({ values: { enabled: false, api_key: '', daily_limit: 42, mode: 'careful' } }) });
    expect(saved).toEqual({
      status: 200,
      body: { saved: true, state: 'disabled', reason: expect.any(String), warnings: [{ field: 'api_key', reason: expect.stringMatching(/does not validate .*kept there/) }] },
    });
    expect(read()).toContain(`api_key = ${INVALID_SECRET}`);
    expect(read()).toContain('daily_limit = 42');
    expect(read()).toContain('enabled = false');
    const form = await call(`${PLUGIN}/config`);
    expect(form.status).toBe(200);
    expect(JSON.stringify(test.logs)).not.toContain(INVALID_SECRET);
  });
});

describe('describeConfigForm with secrets that are not plain strings (issue 13 item 8)', () => {
  it('shows a secret table, a transformed secret and a misplaced one only as set or not set', () => {
    const Model = PluginConfig.extend({
      login: secret(z.object({ user: z.string(), password: z.string() })).optional(),
      trimmed: secret(z.string()).transform((value) => value.trim()).default(''),
      keys: z.array(secret(z.string())).default([]),
      mode: secret(z.enum(['sk-a', 'sk-b'])).default('sk-a'),
    });
    const values = { enabled: true, login: { user: 'me', password: 'hunter2-password' }, trimmed: 'sk-trimmed-value', keys: ['sk-in-a-list'], mode: 'sk-b' };
    const fields = describeConfigForm(Model, values, secretFields(Model));
    expect(fields.slice(1)).toEqual([
      { key: 'login', kind: 'json', description: undefined, secret: true, secretSet: true },
      { key: 'trimmed', kind: 'json', description: undefined, secret: true, secretSet: true },
      { key: 'keys', kind: 'list', description: undefined, secret: true, secretSet: true },
      { key: 'mode', kind: 'enum', description: undefined, secret: true, secretSet: true },
    ]);
    for (const value of ['hunter2-password', 'sk-trimmed-value', 'sk-in-a-list', 'sk-b']) expect(JSON.stringify(fields)).not.toContain(value);
  });
});

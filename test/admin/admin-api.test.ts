import { readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AdminServer } from '../../src/admin/admin-server.js';
import { adminViewOf } from '../../src/app/start-admin.js';
import { messageRecord, streamRecord, useTestDatabases } from '../storage/storage-fixtures.js';
import { SECRET_PLUGIN, secretPluginConfig, useConsoles } from '../support/admin.js';
const SECRET = 'sk-live-0123456789abcdef';

describe('the web console API', () => {
  const startConsole = useConsoles();
  const databases = useTestDatabases();

  async function start() {
    const { test, server, api } = await startConsole({ plugins: [SECRET_PLUGIN], pluginConfigs: secretPluginConfig(SECRET) });
    const configFile = join(test.host.plugins.list().find((status) => status.id === 'fixture.secret-settings')!.folder, 'config.toml');
    return { test, server, api, configFile };
  }

  it('[admin] refuses API calls without the token or with a wrong one, and from another origin or host name', async () => {
    const { server, api } = await start();
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`${base}/api/overview`)).status).toBe(401);
    expect((await fetch(`${base}/api/overview`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await api('/overview')).status).toBe(200);
    const foreign = await api('/overview', { headers: { origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ error: 'refused: requests from http://evil.example are not allowed' });
    // DNS rebinding: a page of another site resolving its name to 127.0.0.1 sends its own Host.
    const rebound = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: server.port, path: '/api/overview', headers: { host: `evil.example:${server.port}`, authorization: `Bearer ${server.token}` } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end();
    });
    expect(rebound).toBe(403);
    // The page itself is served without the token (it asks for it); with the security headers.
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('[admin] shows plugins with state, tools and components, events with their handlers in run order, and an overview', async () => {
    const { api } = await start();
    const plugins = (await (await api('/plugins')).json()) as { plugins: { id: string; state: string; components: string[] }[] };
    expect(plugins.plugins.find((plugin) => plugin.id === 'neo_default_chatter')).toMatchObject({ state: 'loaded' });
    expect(plugins.plugins.find((plugin) => plugin.id === 'neo_default_chatter')!.components).toContain('neo_default_chatter:service:chat_core');
    expect(plugins.plugins.find((plugin) => plugin.id === 'example.hello-yueli')).toMatchObject({ state: 'disabled' });
    const events = (await (await api('/events')).json()) as { events: { event: string; handlers: { weight: number; plugin: string | null; label: string }[] }[] };
    const preprocess = events.events.find((entry) => entry.event === 'neo_default_chatter:preprocess')!;
    expect(preprocess.handlers.map((handler) => handler.weight)).toEqual([100, 50]);
    expect(preprocess.handlers.every((handler) => handler.plugin === 'neo_default_chatter')).toBe(true);
    const overview = (await (await api('/overview')).json()) as Record<string, unknown>;
    expect(overview).toMatchObject({ version: '0.1.0', adapter: null, messagesToday: { inbound: 0, outbound: 0 } });
    expect(String(overview['model'])).toMatch(/offline demo model/);
  });

  it('[admin] shows the database size on the overview: the file with its -wal and -shm files, or that it is in memory', async () => {
    const { test, api } = await start();
    expect(await (await api('/overview')).json()).toMatchObject({ database: { file: ':memory:', sizeBytes: 0 } });

    const { database, file } = databases.fresh();
    database.streams.upsert(streamRecord());
    database.messages.insertInbound(messageRecord({ content: 'x'.repeat(200_000) }));
    const server = new AdminServer({ port: 0, view: { ...adminViewOf(test.host, undefined), database } });
    await server.start();
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/api/overview`, { headers: { authorization: `Bearer ${server.token}` } });
      const { database: shown } = (await response.json()) as { database: { file: string; sizeBytes: number } };
      const onDisk = ['', '-wal', '-shm'].reduce((total, suffix) => total + (statSync(file + suffix, { throwIfNoEntry: false })?.size ?? 0), 0);
      expect(shown).toEqual({ file, sizeBytes: onDisk });
      expect(shown.sizeBytes).toBeGreaterThan(200_000);
    } finally {
      await server.stop();
    }
  });

  it('[admin] [T-37] a plugin config form from its zod model: help texts, secrets only as set or not set', async () => {
    const { api } = await start();
    const response = await api('/plugins/fixture.secret-settings/config');
    const text = await response.text();
    expect(text).not.toContain(SECRET);
    const form = JSON.parse(text) as { fields: Record<string, unknown>[] };
    expect(form.fields).toEqual([
      expect.objectContaining({ key: 'enabled', kind: 'boolean', value: true }),
      { key: 'api_key', kind: 'string', description: 'The API key of the service', secret: true, secretSet: true },
      expect.objectContaining({ key: 'daily_limit', kind: 'integer', description: 'Requests per day, 1 to 100', value: 10, secret: false }),
      expect.objectContaining({ key: 'mode', kind: 'enum', options: ['fast', 'careful'], value: 'fast' }),
    ]);
  });

  it('[admin] [T-38] a bad value refuses the whole save with the field and reason; a good save is on disk and in the reloaded plugin, an empty secret keeps the disk value', async () => {
    const { test, api, configFile } = await start();
    const before = readFileSync(configFile, 'utf8');
    const refused = await api('/plugins/fixture.secret-settings/config', { method: 'PUT', body: JSON.stringify({ values: { enabled: true, api_key: '', daily_limit: 500, mode: 'fast' } }) });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: { field: string; reason: string }[] }).errors).toEqual([{ field: 'daily_limit', reason: expect.stringMatching(/100/) }]);
    expect(readFileSync(configFile, 'utf8')).toBe(before);

    const saved = await api('/plugins/fixture.secret-settings/config', { method: 'PUT', body: JSON.stringify({ values: { enabled: true, api_key: '', daily_limit: 42, mode: 'careful' } }) });
    expect(saved.status).toBe(200);
    const answer = await saved.text();
    expect(answer).not.toContain(SECRET);
    expect(JSON.parse(answer)).toMatchObject({ saved: true, state: 'loaded' });
    const disk = readFileSync(configFile, 'utf8');
    expect(disk).toMatch(/daily_limit = 42/);
    expect(disk).toContain(`api_key = "${SECRET}"`);
    const plugin = test.host.plugins.get('fixture.secret-settings')!;
    expect(plugin.config).toMatchObject({ daily_limit: 42, mode: 'careful', api_key: SECRET });
    for (const path of ['/overview', '/plugins', '/events', '/conversations', '/plugins/fixture.secret-settings/config']) {
      expect(await (await api(path)).text()).not.toContain(SECRET);
    }
    expect(JSON.stringify(test.logs)).not.toContain(SECRET);
  });

  it('[admin] lists conversations with their loop state and a conversation’s messages; unknown ones are 404', async () => {
    const { test, api } = await start();
    await test.adapter.send('你好');
    await test.settle(15_000);
    const list = (await (await api('/conversations')).json()) as { conversations: { streamId: string; chatType: string; state: string | null }[] };
    expect(list.conversations).toHaveLength(1);
    const [conversation] = list.conversations;
    expect(conversation).toMatchObject({ chatType: 'private' });
    const messages = (await (await api(`/conversations/${conversation!.streamId}/messages`)).json()) as { messages: { direction: string; processedPlainText: string }[] };
    expect(messages.messages.map((message) => message.direction)).toEqual(['inbound', 'outbound']);
    expect((await api('/conversations/nope/messages')).status).toBe(404);
    // Usage comes from what the host stored about each model call.
    const usage = (await (await api('/usage')).json()) as { days: number; usage: { day: string; task: string; calls: number; failures: number }[] };
    expect(usage.days).toBe(14);
    const now = new Date(test.clock.now());
    const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    expect(usage.usage).toEqual([expect.objectContaining({ day: today, task: 'actor', failures: 0 })]);
    expect(usage.usage[0]!.calls).toBeGreaterThanOrEqual(1);
    expect((await api('/plugins/nope/config')).status).toBe(404);
  });
});

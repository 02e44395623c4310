import { join } from 'node:path';
import type * as PublicApi from 'moonglass';
import type { McpContentItem, McpToolResult, PluginMcpAccess } from 'moonglass';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import { McpService } from '../../src/mcp/mcp-service.js';
import { McpUnavailableError, type McpUnavailableKind } from '../../src/mcp/mcp-unavailable-error.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { ToolExecutionResult } from '../../src/tools/tool-execution-result.js';
import { useTempDir } from '../support/temp-dir.js';
import { type McpHarness, mcpConfig, pagedFixtureServer, toolContext, useMcpHarness, waitForState } from './mcp-test-kit.js';

const confirmed = { readonly_confirmed: true };

describe(McpService, () => {
  describe('with a stdio server whose tools/list pages', () => {
    const harness = useMcpHarness({ cleanup: 'manual' });
    let mcp: McpHarness;

    beforeAll(async () => {
      mcp = harness.make(
        mcpConfig({
          fixture: pagedFixtureServer({
            tools: {
              echo: confirmed,
              weather: confirmed,
              fail: confirmed,
              soft_fail: confirmed,
              slow: confirmed,
              'web.search': confirmed,
              vanished: confirmed,
            },
          }),
        }),
      );
      mcp.service.start();
      await waitForState(mcp.service, 'fixture', 'connected');
    });
    afterAll(() => harness.stopAll());

    it('connects inside the default protocol range and lists every page of tools, following nextCursor', () => {
      const [status] = mcp.service.status();
      expect(status).toMatchObject({ name: 'fixture', state: 'connected', protocolVersion: '2025-11-25' });
      expect(status?.tools).toEqual(['echo', 'weather', 'fail', 'soft_fail', 'slow', 'crash', 'web.search']);
      expect(status?.reason).toBeUndefined();
    });

    it('[T-31] keeps the content blocks, joins the text blocks in order and passes the structured content as received', async () => {
      const result = await mcp.service.callTool('fixture', 'weather', {}, { kind: 'model' });
      expect(result.isError).toBe(false);
      expect(result.items).toEqual([
        { type: 'text', text: 'Sunny' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'text', text: '21 °C' },
      ]);
      expect(result.text).toBe('Sunny\n21 °C');
      expect(result.structured).toEqual({ condition: 'sunny', temperature: { value: 21, unit: 'C' }, hours: [9, 12, 15] });
    });

    it('passes the arguments and leaves structured undefined when the tool gives none', async () => {
      const result = await mcp.service.forPlugin('notes').callTool('fixture', 'echo', { text: '你好' });
      expect(result).toEqual({ items: [{ type: 'text', text: 'echo: 你好' }], text: 'echo: 你好', structured: undefined, isError: false });
    });

    it('[T-31] resolves a tool that throws on the server with isError and the reason as text', async () => {
      const result = await mcp.service.callTool('fixture', 'fail', {}, { kind: 'plugin', pluginId: 'notes' });
      expect(result.isError).toBe(true);
      expect(result.text).toContain('the fail tool always fails');
      expect(result.text).toContain('MCP 服务 fixture 的工具 fail 请求失败');
      expect(result.items).toEqual([{ type: 'text', text: result.text }]);
      expect(result.structured).toBeUndefined();
      expect(mcp.service.status()[0]?.state).toBe('connected'); // a protocol error is not a lost connection
    });

    it('[T-31] passes a result the tool marked isError through as it came', async () => {
      const result = await mcp.service.callTool('fixture', 'soft_fail', {}, { kind: 'model' });
      expect(result).toEqual({ items: [{ type: 'text', text: 'nothing found for that' }], text: 'nothing found for that', structured: undefined, isError: true });
    });

    it('resolves a tool listed in mcp.toml but not offered by the server with isError, without sending or counting it', async () => {
      const result = await mcp.service.callTool('fixture', 'vanished', {}, { kind: 'model' });
      expect(result.isError).toBe(true);
      expect(result.text).toContain('MCP 服务 fixture 没有提供工具 vanished');
      expect(result.text).toContain('调用未发送');
      expect(mcp.database.mcpUsage.count('2026-05-10', 'fixture', 'vanished')).toBe(0);
    });

    it('counts every call that is sent under the local calendar day', async () => {
      const before = mcp.database.mcpUsage.count('2026-05-10', 'fixture', 'echo');
      await mcp.service.callTool('fixture', 'echo', { text: 'a' }, { kind: 'model' });
      expect(mcp.database.mcpUsage.count('2026-05-10', 'fixture', 'echo')).toBe(before + 1);
    });

    it('resolves with isError when the server does not answer within request_timeout_s on the clock, and the server stays connected', async () => {
      const pending = mcp.service.callTool('fixture', 'slow', {}, { kind: 'model' });
      await mcp.clock.advance(29_999);
      let settled = false;
      void pending.then(() => (settled = true));
      await mcp.clock.advance(0);
      expect(settled).toBe(false);
      await mcp.clock.advance(1);
      const result = await pending;
      expect(result.isError).toBe(true);
      expect(result.text).toBe('MCP 服务 fixture 的工具 slow 请求超时（30 秒内没有结果）');
      expect(mcp.service.status()[0]?.state).toBe('connected');
      expect((await mcp.service.callTool('fixture', 'echo', { text: 'still here' }, { kind: 'model' })).text).toBe('echo: still here');
    });

    it('resolves a cancelled call with isError', async () => {
      const controller = new AbortController();
      const pending = mcp.service.callTool('fixture', 'slow', {}, { kind: 'model' }, { signal: controller.signal });
      controller.abort();
      const result = await pending;
      expect(result).toMatchObject({ isError: true, text: 'MCP 服务 fixture 的工具 slow 调用已取消' });
    });

    it('offers tools with other characters under a sanitized model-facing name', async () => {
      expect(mcp.registry.get('mcp_fixture_web_search')?.owner).toBe('mcp');
      const result = await mcp.service.callTool('fixture', 'web.search', { query: 'moon' }, { kind: 'model' });
      expect(result.text).toBe('results for moon');
    });

    it('logs the connection once, readably', () => {
      const connected = mcp.records.filter((record) => record.msg.startsWith('MCP server fixture connected'));
      expect(connected).toHaveLength(1);
      expect(connected[0]).toMatchObject({ level: 'info', msg: 'MCP server fixture connected (protocol 2025-11-25, 7 tools)' });
      expect(mcp.records.some((record) => record.level === 'warn' && record.msg.includes('does not offer tools listed in mcp.toml: vanished'))).toBe(true);
    });
  });
});

const HAN = /[\u4e00-\u9fff]/;

/** The rejection of `call`, checked to be an `McpUnavailableError` of `kind` with a Chinese reason naming the server and the tool. */
async function expectUnavailable(call: Promise<unknown>, kind: McpUnavailableKind, server: string, tool: string): Promise<McpUnavailableError> {
  const error: unknown = await call.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(McpUnavailableError);
  const unavailable = error as McpUnavailableError;
  expect(unavailable).toMatchObject({ kind, server, tool, code: 'MG_MCP_UNAVAILABLE', name: 'McpUnavailableError' });
  expect(unavailable.message).toMatch(HAN);
  expect(unavailable.message).toContain(`MCP 服务 ${server}`);
  expect(unavailable.message).toContain(tool);
  return unavailable;
}

describe('which MCP tools may be called', () => {
  const harness = useMcpHarness({ cleanup: 'manual' });
  let mcp: McpHarness;

  beforeAll(async () => {
    mcp = harness.make(
      mcpConfig({
        fixture: pagedFixtureServer({
          tools: {
            echo: { readonly_confirmed: true, daily_quota: 2 },
            weather: { readonly_confirmed: true, expose: false },
            fail: { readonly_confirmed: false },
            'web.search': { readonly_confirmed: true, daily_quota: 0 },
          },
        }),
        off: pagedFixtureServer({ enabled: false, tools: { echo: { readonly_confirmed: true } } }),
        broken: {
          transport: 'stdio',
          command: '/nonexistent/moonglass-mcp-server',
          tools: { echo: { readonly_confirmed: true }, weather: {} },
        },
      }),
    );
    mcp.service.start();
    await waitForState(mcp.service, 'fixture', 'connected');
    await waitForState(mcp.service, 'broken', 'disconnected');
  });
  afterAll(() => harness.stopAll());

  it('[T-31] refuses a server that mcp.toml does not configure: not_configured', async () => {
    const error = await expectUnavailable(mcp.service.forPlugin('notes').callTool('nowhere', 'echo', {}), 'not_configured', 'nowhere', 'echo');
    expect(error.message).toBe('MCP 服务 nowhere 未在 config/mcp.toml 中配置，不能调用工具 echo');
  });

  it('[T-30] refuses a tool the server offers but mcp.toml does not list: not_listed', async () => {
    const error = await expectUnavailable(mcp.service.callTool('fixture', 'crash', {}, { kind: 'model' }), 'not_listed', 'fixture', 'crash');
    expect(error.message).toBe('MCP 服务 fixture 的工具 crash 未列在 config/mcp.toml 中，不能调用');
    expect(mcp.service.status().find((status) => status.name === 'fixture')?.state).toBe('connected');
  });

  it('[T-30] refuses a listed tool the owner has not confirmed read-only: not_readonly', async () => {
    const error = await expectUnavailable(mcp.service.forPlugin('notes').callTool('fixture', 'fail'), 'not_readonly', 'fixture', 'fail');
    expect(error.message).toBe('MCP 服务 fixture 的工具 fail 尚未由 Bot 主人确认只读（readonly_confirmed = true），不能调用');
    expect(mcp.registry.get('mcp_fixture_fail')).toBeUndefined();
  });

  it('[T-30] refuses a tool of a server that cannot start: not_connected, with the failure', async () => {
    const error = await expectUnavailable(mcp.service.callTool('broken', 'echo', {}, { kind: 'model' }), 'not_connected', 'broken', 'echo');
    expect(error.message).toMatch(/^MCP 服务 broken 未连接（连接失败：.*ENOENT.*），暂时不能调用工具 echo$/);
    const status = mcp.service.status().find((entry) => entry.name === 'broken');
    expect(status).toMatchObject({ state: 'disconnected', tools: [] });
    expect(status?.reason).toMatch(/^连接失败：/);
  });

  it('[T-30] refuses a tool of a disabled server: not_connected, never started', async () => {
    const error = await expectUnavailable(mcp.service.forPlugin('notes').callTool('off', 'echo', {}), 'not_connected', 'off', 'echo');
    expect(error.message).toBe('MCP 服务 off 未连接（已在配置中停用），暂时不能调用工具 echo');
    expect(mcp.service.status().find((entry) => entry.name === 'off')).toEqual({ name: 'off', state: 'disabled', tools: [], reason: '已在配置中停用' });
  });

  it('checks in order: listed, then read-only, then connected', async () => {
    await expectUnavailable(mcp.service.callTool('broken', 'crash', {}, { kind: 'model' }), 'not_listed', 'broken', 'crash');
    await expectUnavailable(mcp.service.callTool('broken', 'weather', {}, { kind: 'model' }), 'not_readonly', 'broken', 'weather');
  });

  it('[T-30] refuses every call of a tool whose daily quota is 0: quota_spent, nothing sent or counted', async () => {
    const error = await expectUnavailable(mcp.service.forPlugin('notes').callTool('fixture', 'web.search', { query: 'x' }), 'quota_spent', 'fixture', 'web.search');
    expect(error.message).toBe('MCP 服务 fixture 的工具 web.search 今日额度已用完（每日 0 次），请明天再试');
    expect(mcp.database.mcpUsage.count('2026-05-10', 'fixture', 'web.search')).toBe(0);
  });

  it('[T-30] expose = false hides a tool from the model only: a plugin can still call it', async () => {
    expect(mcp.registry.get('mcp_fixture_weather')).toBeUndefined();
    expect(mcp.registry.list().map((tool) => tool.definition.name)).toEqual(['mcp_fixture_echo', 'mcp_fixture_web_search']);
    const result = await mcp.service.forPlugin('notes').callTool('fixture', 'weather');
    expect(result).toMatchObject({ isError: false, text: 'Sunny\n21 °C' });
  });

  it('[T-30] the model and plugins share one daily counter per tool', async () => {
    const byModel = await mcp.registry.execute({ toolName: 'mcp_fixture_echo', callId: 'call-1', arguments: { text: 'from the model' } }, toolContext());
    expect(byModel).toMatchObject({ success: true, observation: 'echo: from the model' });
    const byPlugin = await mcp.service.forPlugin('notes').callTool('fixture', 'echo', { text: 'from a plugin' });
    expect(byPlugin.text).toBe('echo: from a plugin');
    expect(mcp.database.mcpUsage.count('2026-05-10', 'fixture', 'echo')).toBe(2);

    await expectUnavailable(mcp.service.forPlugin('other').callTool('fixture', 'echo', { text: 'third' }), 'quota_spent', 'fixture', 'echo');
    const refused = await mcp.registry.execute({ toolName: 'mcp_fixture_echo', callId: 'call-2', arguments: { text: 'third' } }, toolContext());
    expect(ToolExecutionResult.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ success: false, errorMessage: 'MCP 服务 fixture 的工具 echo 今日额度已用完（每日 2 次），请明天再试' });
    expect(refused.metadata).toMatchObject({ mcpServer: 'fixture', mcpTool: 'echo', mcpUnavailable: 'quota_spent' });
    expect(mcp.database.mcpUsage.count('2026-05-10', 'fixture', 'echo')).toBe(2);
  });

  it('[T-29] gives a plugin a PluginMcpAccess of the public API: callTool(server, toolName, args) only, refusing with McpUnavailableError', async () => {
    // The public entry point exports these very types and this very class.
    expectTypeOf<typeof PublicApi.McpUnavailableError>().toEqualTypeOf<typeof McpUnavailableError>();
    const ctxMcp: PluginMcpAccess = mcp.service.forPlugin('notes');
    expect(Object.keys(ctxMcp)).toEqual(['callTool']);
    expect(Object.isFrozen(ctxMcp)).toBe(true);
    expectTypeOf(ctxMcp.callTool).parameters.toEqualTypeOf<[server: string, tool: string, args?: Record<string, unknown>]>();

    const result: McpToolResult = await ctxMcp.callTool('fixture', 'weather');
    const items: readonly McpContentItem[] = result.items;
    expect(items[0]).toEqual({ type: 'text', text: 'Sunny' });
    const refusal = await ctxMcp.callTool('fixture', 'crash').catch((error: unknown) => error);
    expect(McpUnavailableError.isInstance(refusal)).toBe(true);
    expect(refusal).toBeInstanceOf(McpUnavailableError);
  });
});

const quotaOfOne = mcpConfig({ fixture: pagedFixtureServer({ tools: { echo: { readonly_confirmed: true, daily_quota: 1 } } }) });

describe('the daily quota of an MCP tool', () => {
  const harness = useMcpHarness();
  const tempDir = useTempDir();

  it('[T-30] is spent for the rest of the local day, allowed again after local midnight, and kept in the database', async () => {
    const { logger } = createMemoryLogger();
    const file = join(tempDir(), 'moonglass.db');
    const clock = new ManualClock(new Date(2026, 4, 10, 23, 59, 0).getTime());
    const firstDatabase = openDatabase({ file, logger });
    const first = harness.make(quotaOfOne, { clock, database: firstDatabase });
    first.service.start();
    await waitForState(first.service, 'fixture', 'connected');
    const plugin = first.service.forPlugin('notes');

    expect((await plugin.callTool('fixture', 'echo', { text: 'evening' })).text).toBe('echo: evening');
    await expect(plugin.callTool('fixture', 'echo', { text: 'again' })).rejects.toMatchObject({ kind: 'quota_spent' });
    await clock.advance(59_999); // 23:59:59.999, still the same day
    await expect(first.service.callTool('fixture', 'echo', { text: 'again' }, { kind: 'model' })).rejects.toBeInstanceOf(McpUnavailableError);

    await clock.advance(1); // local midnight
    expect((await first.service.callTool('fixture', 'echo', { text: 'morning' }, { kind: 'model' })).text).toBe('echo: morning');
    await expect(plugin.callTool('fixture', 'echo', { text: 'again' })).rejects.toMatchObject({ kind: 'quota_spent' });
    expect(firstDatabase.mcpUsage.count('2026-05-10', 'fixture', 'echo')).toBe(1);
    expect(firstDatabase.mcpUsage.count('2026-05-11', 'fixture', 'echo')).toBe(1);
    await first.service.stop();
    firstDatabase.close();

    // A restarted bot on the same database file sees the same count.
    const secondDatabase = openDatabase({ file, logger });
    const second = harness.make(quotaOfOne, { clock, database: secondDatabase });
    second.service.start();
    await waitForState(second.service, 'fixture', 'connected');
    await expect(second.service.forPlugin('notes').callTool('fixture', 'echo', { text: 'after restart' })).rejects.toMatchObject({
      kind: 'quota_spent',
      message: 'MCP 服务 fixture 的工具 echo 今日额度已用完（每日 1 次），请明天再试',
    });
    await second.service.stop();
    secondDatabase.close();
  });
});

describe('the daily quota of an MCP tool in the bot’s time zone', () => {
  const harness = useMcpHarness();

  it('[issue 19] counts by the calendar day of bot.toml [bot] timezone, not the machine’s', async () => {
    // 16:30 UTC on 1 January is 00:30 on 2 January in Shanghai; 8 h later is still 2 January there.
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 16, 30));
    const mcp = harness.make(quotaOfOne, { clock, timeZone: 'Asia/Shanghai' });
    mcp.service.start();
    await waitForState(mcp.service, 'fixture', 'connected');
    expect((await mcp.service.callTool('fixture', 'echo', { text: 'a' }, { kind: 'model' })).text).toBe('echo: a');
    expect(mcp.database.mcpUsage.count('2026-01-02', 'fixture', 'echo')).toBe(1);
    await clock.advance(8 * 3_600_000); // 00:30 UTC on 2 January: a new day in UTC, not in Shanghai
    await expect(mcp.service.callTool('fixture', 'echo', { text: 'b' }, { kind: 'model' })).rejects.toMatchObject({ kind: 'quota_spent' });
    await clock.advance(16 * 3_600_000); // 00:30 on 3 January in Shanghai
    expect((await mcp.service.callTool('fixture', 'echo', { text: 'c' }, { kind: 'model' })).text).toBe('echo: c');
  });
});

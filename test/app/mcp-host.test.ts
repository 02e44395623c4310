import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpUnavailableError } from '../../src/mcp/mcp-unavailable-error.js';
import { createTestHost, type TestHost } from '../../src/testing/create-test-host.js';
import { waitForState } from '../mcp/mcp-test-kit.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mcp/paged-tools-server.mjs', import.meta.url));

describe('MCP through the host', () => {
  const hosts: TestHost[] = [];
  afterEach(async () => {
    while (hosts.length > 0) await hosts.pop()!.stop();
  });

  it('[T-29] [T-30] a plugin calls a configured tool through ctx.mcp; an exposed tool reaches the model, a hidden one does not', async () => {
    const test = await createTestHost({
      mcpConfig: {
        servers: {
          fixture: {
            transport: 'stdio',
            command: process.execPath,
            args: [FIXTURE],
            tools: { echo: { readonly_confirmed: true }, 'web.search': { readonly_confirmed: true, expose: false }, weather: {} },
          },
        },
      },
    });
    hosts.push(test);
    await waitForState(test.host.mcp, 'fixture', 'connected');
    const plugin = test.host.plugins.get('neo_default_chatter')!;
    const result = await plugin.ctx.mcp.callTool('fixture', 'echo', { text: '你好' });
    expect(result).toMatchObject({ isError: false, text: 'echo: 你好' });
    await expect(plugin.ctx.mcp.callTool('fixture', 'weather')).rejects.toBeInstanceOf(McpUnavailableError);
    const offered = test.host.tools.declarations({ capabilities: new Set() }).map((declaration) => declaration.function.name);
    expect(offered).toContain('mcp_fixture_echo');
    expect(offered.some((name) => name.includes('search'))).toBe(false);
  });

  it('[T-31] with no MCP server configured, a plugin’s call is refused with the not_configured reason (and the SDK is never loaded)', async () => {
    const test = await createTestHost();
    hosts.push(test);
    const plugin = test.host.plugins.get('neo_default_chatter')!;
    const error = await plugin.ctx.mcp.callTool('search', 'web', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpUnavailableError);
    expect(error).toMatchObject({ kind: 'not_configured', message: 'MCP 服务 search 未在 config/mcp.toml 中配置，不能调用工具 web' });
    expect(test.host.mcp.status()).toEqual([]);
  });
});

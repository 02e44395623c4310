import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpTransport } from '../../src/mcp/create-mcp-transport.js';
import type { NamedMcpServerConfig } from '../../src/mcp/mcp-config.js';
import { protocolVersionProblem } from '../../src/mcp/protocol-version-problem.js';
import { reconnectDelayMs } from '../../src/mcp/reconnect-delay.js';
import { mcpConfig, pagedFixtureServer, statusOf, toolContext, useMcpHarness, waitForState } from './mcp-test-kit.js';

// The fixture runs SDK 1.32.2, which negotiates 2025-11-25 with this client.
const narrowRange = mcpConfig({
  fixture: pagedFixtureServer({ protocol_versions: { min: '2024-11-05', max: '2025-06-18' }, tools: { echo: { readonly_confirmed: true } } }),
});

describe('the protocol versions a server may negotiate', () => {
  const harness = useMcpHarness();

  it('refuses a server outside its range: status refused with the reason, calls not_connected, not retried', async () => {
    const mcp = harness.make(narrowRange);
    mcp.service.start();
    const status = await waitForState(mcp.service, 'fixture', 'refused');
    expect(status).toEqual({ name: 'fixture', state: 'refused', protocolVersion: '2025-11-25', tools: [], reason: '协议版本 2025-11-25 不在允许范围 2024-11-05 至 2025-06-18 内' });
    await expect(mcp.service.callTool('fixture', 'echo', { text: 'x' }, { kind: 'model' })).rejects.toMatchObject({
      kind: 'not_connected',
      message: 'MCP 服务 fixture 未连接（协议版本 2025-11-25 不在允许范围 2024-11-05 至 2025-06-18 内），暂时不能调用工具 echo',
    });
    expect(mcp.registry.list()).toEqual([]);
    expect(mcp.clock.pendingTimers).toBe(0);
    const logged = mcp.records.filter((record) => record.level === 'error' && record.server === 'fixture');
    expect(logged).toHaveLength(1);
    expect(logged[0]?.msg).toContain('protocol version 2025-11-25 is outside 2024-11-05 to 2025-06-18');
  });

  it('[T-28] force_compatibility connects a server outside its range, with a warning', async () => {
    const mcp = harness.make(narrowRange, { forceCompatibility: true });
    mcp.service.start();
    expect(await waitForState(mcp.service, 'fixture', 'connected')).toMatchObject({ protocolVersion: '2025-11-25' });
    const warnings = mcp.records.filter((record) => record.level === 'warn' && record.server === 'fixture' && record.msg.includes('force_compatibility'));
    expect(warnings).toHaveLength(1);
    expect((await mcp.service.callTool('fixture', 'echo', { text: 'forced' }, { kind: 'model' })).text).toBe('echo: forced');
  });

  it('compares versions as dates, both ends included', () => {
    const range = { min: '2025-03-26', max: '2025-06-18' };
    expect(protocolVersionProblem('2025-03-26', range)).toBeUndefined();
    expect(protocolVersionProblem('2025-06-18', range)).toBeUndefined();
    expect(protocolVersionProblem('2024-11-05', range)).toBe('协议版本 2024-11-05 不在允许范围 2025-03-26 至 2025-06-18 内');
    expect(protocolVersionProblem(undefined, range)).toBe('没有报告协商的协议版本');
  });
});

describe('MCP connections over time', () => {
  const harness = useMcpHarness();

  describe('when a stdio server exits', () => {
    it('unregisters its tools, reconnects after 1 s on the clock, offers them again, and unregisters them when the service stops', async () => {
      const mcp = harness.make(mcpConfig({ fixture: pagedFixtureServer({ tools: { echo: { readonly_confirmed: true }, crash: { readonly_confirmed: true, expose: false } } }) }));
      mcp.service.start();
      await waitForState(mcp.service, 'fixture', 'connected');
      expect(mcp.registry.list().map((tool) => tool.definition.name)).toEqual(['mcp_fixture_echo']);
      const viaRegistry = await mcp.registry.execute({ toolName: 'mcp_fixture_echo', callId: 'c1', arguments: { text: 'one' } }, toolContext());
      expect(viaRegistry).toMatchObject({ success: true, observation: 'echo: one' });

      const crashed = await mcp.service.forPlugin('notes').callTool('fixture', 'crash');
      expect(crashed.isError).toBe(true);
      expect(crashed.text).toContain('MCP 服务 fixture 的工具 crash 请求失败');
      const dropped = await waitForState(mcp.service, 'fixture', 'disconnected');
      expect(dropped.reason).toMatch(/^连接已断开/);
      expect(mcp.registry.list()).toEqual([]);
      const gone = await mcp.registry.execute({ toolName: 'mcp_fixture_echo', callId: 'c2', arguments: { text: 'two' } }, toolContext());
      expect(gone).toMatchObject({ success: false, metadata: { failureKind: 'unknown_tool' } });
      await expect(mcp.service.callTool('fixture', 'echo', { text: 'two' }, { kind: 'model' })).rejects.toMatchObject({ kind: 'not_connected' });
      expect(mcp.records.filter((record) => record.level === 'warn' && record.msg === 'MCP server fixture disconnected; reconnecting in 1 s')).toHaveLength(1);

      await mcp.clock.advance(999);
      expect(statusOf(mcp.service, 'fixture').state).toBe('disconnected');
      await mcp.clock.advance(1);
      await waitForState(mcp.service, 'fixture', 'connected');
      const back = await mcp.registry.execute({ toolName: 'mcp_fixture_echo', callId: 'c3', arguments: { text: 'three' } }, toolContext());
      expect(back).toMatchObject({ success: true, observation: 'echo: three' });
      expect(mcp.records.filter((record) => record.msg.startsWith('MCP server fixture connected'))).toHaveLength(2);

      await mcp.service.stop();
      expect(mcp.registry.list()).toEqual([]);
      expect(statusOf(mcp.service, 'fixture')).toEqual({ name: 'fixture', state: 'disconnected', protocolVersion: '2025-11-25', tools: [], reason: '服务已停止' });
      await expect(mcp.service.callTool('fixture', 'echo', { text: 'x' }, { kind: 'model' })).rejects.toMatchObject({ kind: 'not_connected' });
    });
  });

  describe('when a server cannot be started', () => {
    it('retries after 1, 2, 4 … s on the clock, logging the failure once per outage, until the service stops', async () => {
      const attempts: string[] = [];
      const connectTransport = (server: NamedMcpServerConfig): Promise<Transport> => {
        attempts.push(server.name);
        return createMcpTransport(server);
      };
      const mcp = harness.make(mcpConfig({ broken: { transport: 'stdio', command: '/nonexistent/moonglass-mcp-server' } }), { connectTransport });
      mcp.service.start();
      const waitForAttempt = async (count: number): Promise<void> => {
        expect(attempts).toHaveLength(count);
        await waitForState(mcp.service, 'broken', 'disconnected');
        while (mcp.clock.pendingTimers === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      };
      await waitForAttempt(1);
      for (const [delay, count] of [
        [1000, 2],
        [2000, 3],
        [4000, 4],
      ] as const) {
        await mcp.clock.advance(delay - 1);
        expect(attempts).toHaveLength(count - 1);
        await mcp.clock.advance(1);
        await waitForAttempt(count);
      }
      const failures = mcp.records.filter((record) => record.server === 'broken' && record.msg.includes('cannot connect'));
      expect(failures.map((record) => record.level)).toEqual(['warn', 'debug', 'debug', 'debug']);
      expect(failures[0]?.msg).toMatch(/^MCP server broken: cannot connect \(.*ENOENT.*\); retrying in 1 s, then with pauses growing to 60 s$/);

      // Stopping cancels the pending reconnect.
      expect(mcp.clock.pendingTimers).toBe(1);
      await mcp.service.stop();
      expect(mcp.clock.pendingTimers).toBe(0);
      await mcp.clock.advance(60_000);
      expect(attempts).toHaveLength(4);
      expect(statusOf(mcp.service, 'broken')).toMatchObject({ state: 'disconnected', reason: '服务已停止' });
    });
  });
});

describe(reconnectDelayMs, () => {
  it('waits 1 s, doubling per attempt, at most 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map(reconnectDelayMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('a server that changes its tools while connected', () => {
  const harness = useMcpHarness();

  it('is relisted on tools/list_changed, and the model is offered the new tool', async () => {
    const server = new McpServer({ name: 'growing-fixture', version: '1.0.0' });
    server.registerTool('first', { description: 'The first tool.' }, () => ({ content: [{ type: 'text', text: 'first' }] }));
    const connectTransport = (): Transport => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void server.connect(serverSide);
      return clientSide;
    };
    const mcp = harness.make(
      mcpConfig({ growing: { transport: 'stdio', command: 'unused', tools: { first: { readonly_confirmed: true }, second: { readonly_confirmed: true } } } }),
      { connectTransport },
    );
    mcp.service.start();
    await waitForState(mcp.service, 'growing', 'connected');
    expect(mcp.registry.list().map((tool) => tool.definition.name)).toEqual(['mcp_growing_first']);
    expect((await mcp.service.callTool('growing', 'second', {}, { kind: 'model' })).isError).toBe(true);

    server.registerTool('second', { description: 'Added later.', inputSchema: { n: z.number() } }, ({ n }) => ({ content: [{ type: 'text', text: `second ${n}` }] }));
    await waitFor(() => statusOf(mcp.service, 'growing').tools.includes('second'));
    expect(mcp.registry.list().map((tool) => tool.definition.name)).toEqual(['mcp_growing_first', 'mcp_growing_second']);
    expect((await mcp.service.callTool('growing', 'second', { n: 2 }, { kind: 'model' })).text).toBe('second 2');
    await server.close();
  });
});

describe('a tool the tool registry refuses', () => {
  const harness = useMcpHarness();

  it('is logged and left out of the model’s tools; plugins can still call it', async () => {
    const serverWith = (tool: string): McpServer => {
      const server = new McpServer({ name: `clash-${tool}`, version: '1.0.0' });
      server.registerTool(tool, { description: `The ${tool} tool.` }, () => ({ content: [{ type: 'text', text: tool }] }));
      return server;
    };
    // "a_b" + "c" and "a" + "b_c" both become mcp_a_b_c.
    const servers: Record<string, McpServer> = { a_b: serverWith('c'), a: serverWith('b_c') };
    const connectTransport = (server: NamedMcpServerConfig): Transport => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void servers[server.name]!.connect(serverSide);
      return clientSide;
    };
    const mcp = harness.make(
      mcpConfig({
        a_b: { transport: 'stdio', command: 'unused', tools: { c: { readonly_confirmed: true } } },
        a: { transport: 'stdio', command: 'unused', tools: { b_c: { readonly_confirmed: true } } },
      }),
      { connectTransport },
    );
    mcp.service.start();
    await waitForState(mcp.service, 'a_b', 'connected');
    await waitForState(mcp.service, 'a', 'connected');
    expect(mcp.registry.list().map((tool) => tool.definition.name)).toEqual(['mcp_a_b_c']);
    const refused = mcp.records.filter((record) => record.level === 'warn' && record.msg.includes('is not offered to the model'));
    expect(refused).toHaveLength(1);
    expect(refused[0]?.msg).toContain('plugins can still call it');
    const loser = refused[0]?.server === 'a' ? { server: 'a', tool: 'b_c' } : { server: 'a_b', tool: 'c' };
    expect((await mcp.service.forPlugin('notes').callTool(loser.server, loser.tool)).text).toBe(loser.tool);
    await Promise.all(Object.values(servers).map((server) => server.close()));
  });
});

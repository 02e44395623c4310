import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { mcpConfig, statusOf, toolContext, useMcpHarness, waitForState } from './mcp-test-kit.js';


/** A fresh MCP server with two tools: `add` (text and structured content) and `boom` (throws). */
function calculatorServer(): McpServer {
  const server = new McpServer({ name: 'calculator-fixture', version: '1.0.0' });
  server.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    ({ a, b }) => ({ content: [{ type: 'text', text: `${a} + ${b} = ${a + b}` }], structuredContent: { sum: a + b } }),
  );
  server.registerTool('boom', { description: 'Always throws.' }, () => {
    throw new Error('the calculator exploded');
  });
  return server;
}

/** A loopback HTTP server answering MCP at /mcp in stateless mode: a new McpServer and transport per request. */
async function listenCalculator(port = 0): Promise<{ server: Server; url: string; port: number }> {
  const server = createServer((request, response) => {
    const mcp = calculatorServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    void mcp.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${address.port}/mcp`, port: address.port };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('an MCP server over Streamable HTTP on loopback', () => {
  const harness = useMcpHarness();
  const servers: Server[] = [];
  afterEach(async () => {
    while (servers.length > 0) await close(servers.pop()!);
  });

  it('connects, lists and calls, with text and structured content; a tool that throws resolves with isError', async () => {
    const calculator = await listenCalculator();
    servers.push(calculator.server);
    const mcp = harness.make(
      mcpConfig({ calculator: { transport: 'http', url: calculator.url, tools: { add: { readonly_confirmed: true }, boom: { readonly_confirmed: true } } } }),
    );
    mcp.service.start();
    const status = await waitForState(mcp.service, 'calculator', 'connected');
    expect(status).toMatchObject({ protocolVersion: '2025-11-25', tools: ['add', 'boom'] });

    const sum = await mcp.service.forPlugin('notes').callTool('calculator', 'add', { a: 2, b: 3 });
    expect(sum).toEqual({ items: [{ type: 'text', text: '2 + 3 = 5' }], text: '2 + 3 = 5', structured: { sum: 5 }, isError: false });

    const byModel = await mcp.registry.execute({ toolName: 'mcp_calculator_add', callId: 'c1', arguments: { a: 1, b: 1 } }, toolContext());
    expect(byModel).toMatchObject({ success: true, observation: '1 + 1 = 2' });
    const badArguments = await mcp.registry.execute({ toolName: 'mcp_calculator_add', callId: 'c2', arguments: { a: 'one' } }, toolContext());
    expect(badArguments).toMatchObject({ success: false, metadata: { failureKind: 'invalid_arguments' } });
    expect(mcp.database.mcpUsage.count('2026-05-10', 'calculator', 'add')).toBe(2); // the invalid call was never sent

    const boom = await mcp.service.callTool('calculator', 'boom', {}, { kind: 'model' });
    expect(boom.isError).toBe(true);
    expect(boom.text).toContain('the calculator exploded');
    const boomByModel = await mcp.registry.execute({ toolName: 'mcp_calculator_boom', callId: 'c3', arguments: {} }, toolContext());
    expect(boomByModel.success).toBe(false);
    expect(boomByModel.errorMessage).toContain('the calculator exploded');
  });

  it('notices a server that went away on the next call, and reconnects once it is back', async () => {
    const first = await listenCalculator();
    const mcp = harness.make(mcpConfig({ calculator: { transport: 'http', url: first.url, tools: { add: { readonly_confirmed: true } } } }));
    mcp.service.start();
    await waitForState(mcp.service, 'calculator', 'connected');
    await close(first.server);

    const failed = await mcp.service.callTool('calculator', 'add', { a: 1, b: 2 }, { kind: 'model' });
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(/^MCP 服务 calculator 的工具 add 请求失败：/);
    expect(statusOf(mcp.service, 'calculator').state).toBe('disconnected');
    expect(mcp.registry.list()).toEqual([]);

    const second = await listenCalculator(first.port);
    servers.push(second.server);
    await mcp.clock.advance(1000);
    await waitForState(mcp.service, 'calculator', 'connected');
    expect((await mcp.service.callTool('calculator', 'add', { a: 1, b: 2 }, { kind: 'model' })).structured).toEqual({ sum: 3 });
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { listAllMcpTools } from '../../src/mcp/list-all-mcp-tools.js';

const noArguments = { type: 'object' as const, properties: {} };

describe(listAllMcpTools, () => {
  const clients: Client[] = [];
  afterEach(async () => {
    while (clients.length > 0) await clients.pop()!.close();
  });

  async function clientOf(page: (cursor: string | undefined) => ListToolsResult): Promise<Client> {
    const server = new Server({ name: 'pages', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, (request) => page(request.params?.cursor));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  }

  it('follows nextCursor until a page has none', async () => {
    const client = await clientOf((cursor) => {
      const index = Number(cursor ?? 0);
      return { tools: [{ name: `tool${index}`, inputSchema: noArguments }], ...(index < 2 ? { nextCursor: String(index + 1) } : {}) };
    });
    expect((await listAllMcpTools(client)).map((tool) => tool.name)).toEqual(['tool0', 'tool1', 'tool2']);
  });

  it('stops with an error when a server repeats a cursor', async () => {
    const client = await clientOf(() => ({ tools: [], nextCursor: 'again' }));
    await expect(listAllMcpTools(client)).rejects.toThrow('tools/list repeated the cursor "again"');
  });
});

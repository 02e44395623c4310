import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEMORY_SERVER, mcpConfig, toolContext, useMcpHarness, waitForState } from './mcp-test-kit.js';
import { useTempDir } from '../support/temp-dir.js';

describe('the published @modelcontextprotocol/server-memory over stdio', () => {
  const harness = useMcpHarness();
  const tempDir = useTempDir();

  it('connects, lists its tools and answers read_graph, for a plugin and for the model', async () => {
    const memoryFile = join(tempDir(), 'memory.jsonl');
    const mcp = harness.make(
      mcpConfig({
        memory: {
          transport: 'stdio',
          command: process.execPath,
          args: [MEMORY_SERVER],
          env: { MEMORY_FILE_PATH: memoryFile },
          tools: { read_graph: { readonly_confirmed: true }, search_nodes: { readonly_confirmed: true, expose: false }, create_entities: {} },
        },
      }),
    );
    mcp.service.start();
    const status = await waitForState(mcp.service, 'memory', 'connected');
    expect(status.tools).toEqual(expect.arrayContaining(['read_graph', 'search_nodes', 'create_entities', 'open_nodes']));

    const graph = await mcp.service.forPlugin('notes').callTool('memory', 'read_graph');
    expect(graph.isError).toBe(false);
    expect(graph.structured).toEqual({ entities: [], relations: [] });
    expect(JSON.parse(graph.text)).toEqual({ entities: [], relations: [] });

    const found = await mcp.service.forPlugin('notes').callTool('memory', 'search_nodes', { query: 'moon' });
    expect(found.structured).toEqual({ entities: [], relations: [] });

    expect(mcp.registry.list().map((tool) => tool.definition.name)).toEqual(['mcp_memory_read_graph']);
    const declaration = mcp.registry.declarations({ capabilities: new Set() })[0];
    expect(declaration?.function.parameters).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    const byModel = await mcp.registry.execute({ toolName: 'mcp_memory_read_graph', callId: 'c1', arguments: {} }, toolContext());
    expect(byModel.success).toBe(true);
    expect(JSON.parse(byModel.observation)).toEqual({ entities: [], relations: [] });

    await expect(mcp.service.forPlugin('notes').callTool('memory', 'create_entities', { entities: [] })).rejects.toMatchObject({ kind: 'not_readonly' });
    expect(existsSync(memoryFile) ? readFileSync(memoryFile, 'utf8') : '').toBe('');
  });
});

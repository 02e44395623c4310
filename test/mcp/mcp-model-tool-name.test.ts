import { describe, expect, it } from 'vitest';
import { mcpModelToolName } from '../../src/mcp/mcp-model-tool-name.js';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

describe(mcpModelToolName, () => {
  it('prefixes mcp_ and the server name', () => {
    expect(mcpModelToolName('memory', 'read_graph')).toBe('mcp_memory_read_graph');
  });

  it('replaces characters model APIs refuse with _', () => {
    expect(mcpModelToolName('web search', 'web.search/v2')).toBe('mcp_web_search_web_search_v2');
    expect(mcpModelToolName('搜索', 'find')).toMatch(TOOL_NAME);
  });

  it('cuts a long name to 64 characters, keeping two long names apart with a hash', () => {
    const first = mcpModelToolName('s'.repeat(40), `${'t'.repeat(40)}_one`);
    const second = mcpModelToolName('s'.repeat(40), `${'t'.repeat(40)}_two`);
    expect(first).toMatch(TOOL_NAME);
    expect(first).toHaveLength(64);
    expect(first).not.toBe(second);
  });
});

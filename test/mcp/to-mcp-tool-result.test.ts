import { describe, expect, it } from 'vitest';
import { mcpObservation } from '../../src/mcp/mcp-observation.js';
import { mcpFailureResult, toMcpToolResult } from '../../src/mcp/to-mcp-tool-result.js';

describe(toMcpToolResult, () => {
  it('[T-31] keeps every block as received, joins only the text blocks and passes structured content through', () => {
    const content = [
      { type: 'text', text: 'first', annotations: { priority: 1 } },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
      { type: 'resource', resource: { uri: 'file:///b.txt', text: 'embedded' } },
      { type: 'text', text: 'second' },
    ];
    const structured = { rows: [1, 2], nested: { ok: true } };
    const result = toMcpToolResult({ content, structuredContent: structured });
    expect(result.items).toBe(content);
    expect(result.text).toBe('first\nsecond');
    expect(result.structured).toBe(structured);
    expect(result.isError).toBe(false);
  });

  it('is isError only when the server said so, and has no structured content when none came', () => {
    expect(toMcpToolResult({ content: [], isError: true })).toEqual({ items: [], text: '', structured: undefined, isError: true });
    expect(toMcpToolResult({ content: [{ type: 'text', text: 'x' }], isError: 'yes' }).isError).toBe(false);
    expect(toMcpToolResult({ toolResult: 'legacy' })).toEqual({ items: [], text: '', structured: undefined, isError: false });
  });

  it('makes a failure result whose only block is the reason', () => {
    expect(mcpFailureResult('请求失败')).toEqual({ items: [{ type: 'text', text: '请求失败' }], text: '请求失败', structured: undefined, isError: true });
  });
});

describe(mcpObservation, () => {
  it('reads the blocks in order, other blocks as placeholders; structured content as JSON when there are no blocks', () => {
    const result = toMcpToolResult({
      content: [
        { type: 'text', text: 'Sunny' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA' } },
      ],
    });
    expect(mcpObservation(result)).toBe('Sunny\n[图片 image/png]\n[资源 file:///b.bin]');
    expect(mcpObservation(toMcpToolResult({ content: [], structuredContent: { sum: 3 } }))).toBe('{"sum":3}');
    expect(mcpObservation(toMcpToolResult({ content: [] }))).toBe('（工具没有返回内容）');
  });
});

import type { McpContentItem, McpToolResult } from './mcp-types.js';

/** A `tools/call` result as the SDK returns it; only `content`, `structuredContent` and `isError` are read. */
export type RawCallToolResult = Readonly<Record<string, unknown>>;

/**
 * A `tools/call` result as plugins and the model see it: the content blocks as received,
 * every text block's text joined with '\n' in order, the structured content as received
 * (undefined when there is none), `isError` only when the server said so.
 */
export function toMcpToolResult(result: RawCallToolResult): McpToolResult {
  const content = result['content'];
  const items = (Array.isArray(content) ? content : []) as McpContentItem[];
  const text = items
    .filter((item): item is Extract<McpContentItem, { type: 'text' }> => item.type === 'text' && typeof item.text === 'string')
    .map((item) => item.text)
    .join('\n');
  return { items, text, structured: result['structuredContent'] ?? undefined, isError: result['isError'] === true };
}

/** A result for a call that failed before the tool could answer: a transport failure, protocol error or timeout. */
export function mcpFailureResult(reason: string): McpToolResult {
  return { items: [{ type: 'text', text: reason }], text: reason, structured: undefined, isError: true };
}

import type { McpContentItem, McpToolResult } from './mcp-types.js';

function describeItem(item: McpContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
      return `[图片 ${item.mimeType}]`;
    case 'audio':
      return `[音频 ${item.mimeType}]`;
    case 'resource_link':
      return `[资源链接 ${item.name}：${item.uri}]`;
    case 'resource':
      return typeof item.resource.text === 'string' ? item.resource.text : `[资源 ${item.resource.uri}]`;
    default: {
      const unknown: { type?: unknown } = item;
      return `[${String(unknown.type)} 内容]`;
    }
  }
}

/**
 * What the model reads back from a successful MCP call: the content blocks in order, text as
 * it is and other blocks as short placeholders (`[图片 image/png]`); with no blocks, the
 * structured content as JSON.
 */
export function mcpObservation(result: McpToolResult): string {
  if (result.items.length > 0) return result.items.map(describeItem).join('\n');
  if (result.structured !== undefined) return JSON.stringify(result.structured);
  return '（工具没有返回内容）';
}

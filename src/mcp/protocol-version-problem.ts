import type { McpProtocolVersions } from './mcp-config.js';

/**
 * Why `version` (the protocol version a server negotiated) is not acceptable under `range`,
 * in Chinese; `undefined` when it is. Versions are dates, so they compare as strings.
 */
export function protocolVersionProblem(version: string | undefined, range: McpProtocolVersions): string | undefined {
  if (version === undefined) return '没有报告协商的协议版本';
  if (version < range.min || version > range.max) return `协议版本 ${version} 不在允许范围 ${range.min} 至 ${range.max} 内`;
  return undefined;
}

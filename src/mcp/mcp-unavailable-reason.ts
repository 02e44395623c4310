import { McpUnavailableError, type McpUnavailableKind } from './mcp-unavailable-error.js';

/** The facts a reason may need besides the server and the tool. */
export interface McpUnavailableFacts {
  /** not_connected: why the server is not connected (its status reason). */
  connection?: string;
  /** quota_spent: the daily quota. */
  dailyQuota?: number;
}

type ReasonBuilder = (server: string, tool: string, facts: McpUnavailableFacts) => string;

const REASONS = {
  not_configured: (server, tool) => `MCP 服务 ${server} 未在 config/mcp.toml 中配置，不能调用工具 ${tool}`,
  not_listed: (server, tool) => `MCP 服务 ${server} 的工具 ${tool} 未列在 config/mcp.toml 中，不能调用`,
  not_readonly: (server, tool) => `MCP 服务 ${server} 的工具 ${tool} 尚未由 Bot 主人确认只读（readonly_confirmed = true），不能调用`,
  not_connected: (server, tool, facts) => `MCP 服务 ${server} 未连接（${facts.connection ?? '原因不明'}），暂时不能调用工具 ${tool}`,
  quota_spent: (server, tool, facts) => `MCP 服务 ${server} 的工具 ${tool} 今日额度已用完（每日 ${facts.dailyQuota ?? 0} 次），请明天再试`,
} as const satisfies Record<McpUnavailableKind, ReasonBuilder>;

/** An `McpUnavailableError` of `kind` whose message is the Chinese reason naming the server and the tool. */
export function mcpUnavailable(server: string, tool: string, kind: McpUnavailableKind, facts: McpUnavailableFacts = {}): McpUnavailableError {
  const build: ReasonBuilder = REASONS[kind];
  return new McpUnavailableError(server, tool, kind, build(server, tool, facts));
}

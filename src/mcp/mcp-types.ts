/** One content block of an MCP tool result, as the server sent it. */
export type McpContentItem =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } };

/** What `ctx.mcp.callTool` resolves to. */
export interface McpToolResult {
  /** The content blocks, in order, as received. */
  readonly items: readonly McpContentItem[];
  /** Every text block's text, joined in order with newlines. */
  readonly text: string;
  /** The structured content as received (`structuredContent`); undefined when the tool gave none. The plugin decides whether to read it as JSON. */
  readonly structured: unknown;
  /** The tool failed, or the server request failed; `text` says why. */
  readonly isError: boolean;
}

/** `this.ctx.mcp`: the MCP tools the bot owner configured, for a plugin to call. */
export interface PluginMcpAccess {
  /**
   * Calls `tool` (its name on the server) of `server` (its name in `config/mcp.toml`). Throws
   * `McpUnavailableError` (with a Chinese reason) when the tool may not be called now: not
   * listed, not confirmed read-only, its server not connected, or its daily quota spent. A
   * failing tool or server request resolves with `isError: true`.
   */
  callTool(server: string, tool: string, args?: Record<string, unknown>): Promise<McpToolResult>;
}

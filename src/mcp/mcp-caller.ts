/** Who calls an MCP tool: the model (through the tool registry) or a plugin (through `ctx.mcp`). */
export type McpCaller = { readonly kind: 'model' } | { readonly kind: 'plugin'; readonly pluginId: string };

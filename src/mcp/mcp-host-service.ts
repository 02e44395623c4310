import type { McpServerStatus } from './mcp-server-status.js';
import type { PluginMcpAccess } from './mcp-types.js';

/** What the host needs of its MCP service (the real one, or the stand-in when none is configured). */
export interface McpHostService {
  /** Starts connecting the enabled servers in the background; returns at once. */
  start(): void;
  /** Closes every connection and removes the MCP tools offered to the model; later calls do nothing. */
  stop(): Promise<void>;
  /** The `ctx.mcp` of plugin `pluginId`: its calls are logged as that plugin's. Throws on an empty id. */
  forPlugin(pluginId: string): PluginMcpAccess;
  /** Every configured server's state, in config order (empty when none is configured). */
  status(): McpServerStatus[];
}

import type { McpServerStatus } from './mcp-server-status.js';
import type { PluginMcpAccess } from './mcp-types.js';

/** What the host needs of its MCP service (the real one, or the stand-in when none is configured). */
export interface McpHostService {
  /** Starts connecting the enabled servers in the background; returns at once. */
  start(): void;
  stop(): Promise<void>;
  forPlugin(pluginId: string): PluginMcpAccess;
  status(): McpServerStatus[];
}

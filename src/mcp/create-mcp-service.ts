import type { McpHostService } from './mcp-host-service.js';
import type { McpServiceOptions } from './mcp-service.js';
import { mcpUnavailable } from './mcp-unavailable-reason.js';

/**
 * The host's MCP service. With no server in `config/mcp.toml` it is a stand-in that answers
 * every call with the `not_configured` reason, and the MCP SDK (about 0.3 s to import) is not
 * loaded at all: most bots configure no MCP server, and start-up time matters.
 */
export async function createMcpService(options: McpServiceOptions): Promise<McpHostService> {
  if (Object.keys(options.config.servers).length > 0) {
    const { McpService } = await import('./mcp-service.js');
    return new McpService(options);
  }
  return {
    start() {
      options.logger.info({ servers: [], enabled: [] }, 'MCP: 0 servers configured, 0 enabled');
    },
    async stop() {},
    forPlugin() {
      return Object.freeze({
        callTool: async (server: string, tool: string) => {
          throw mcpUnavailable(server, tool, 'not_configured');
        },
      });
    },
    status: () => [],
  };
}

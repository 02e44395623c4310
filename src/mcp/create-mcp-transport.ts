import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { NamedMcpServerConfig } from './mcp-config.js';

/** Makes a fresh, unstarted transport for one connection attempt to `server`. */
export type McpTransportFactory = (server: NamedMcpServerConfig) => Transport | Promise<Transport>;

/**
 * The transports of `config/mcp.toml`: a child process for `stdio` (its stderr piped, so the
 * service can log it instead of mixing it into the bot's own output), Streamable HTTP for
 * `http`.
 */
export async function createMcpTransport(server: NamedMcpServerConfig): Promise<Transport> {
  switch (server.transport) {
    case 'stdio':
      return new StdioClientTransport({
        command: server.command,
        args: [...server.args],
        env: { ...server.env },
        ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
        stderr: 'pipe',
      });
    case 'http': {
      // Loaded on first use: a bot without HTTP servers never loads the HTTP client and its
      // dependencies (eventsource-parser, whose `source` export is TypeScript that plain Node
      // cannot run when started with `--conditions=source`, as the test runner is).
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      return new StreamableHTTPClientTransport(new URL(server.url));
    }
    default: {
      const unhandled: never = server;
      throw new Error(`unhandled MCP transport ${JSON.stringify(unhandled)}`);
    }
  }
}

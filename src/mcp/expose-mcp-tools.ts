import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import { type Disposer, once } from '../kernel/scope/disposer.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { NamedMcpServerConfig } from './mcp-config.js';
import { mcpToolDefinition } from './mcp-tool-definition.js';
import type { McpToolResult } from './mcp-types.js';

/** The registry owner of every MCP tool offered to the model. */
export const MCP_TOOL_OWNER = 'mcp';

export interface ExposeMcpToolsOptions {
  registry: ToolRegistry;
  server: NamedMcpServerConfig;
  /** The tools the server offers. */
  offered: readonly Tool[];
  logger: Logger;
  /** Calls `tool` of the server as the model. */
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpToolResult>;
}

export interface ExposedMcpTools {
  /** The model-facing names registered. */
  readonly names: readonly string[];
  /** Unregisters them all; safe to call twice. */
  readonly dispose: Disposer;
}

/**
 * Registers, as read-only tools of owner `mcp`, every offered tool that `config/mcp.toml`
 * lists under the server with `readonly_confirmed = true` and `expose = true`. A tool the
 * registry refuses (a name clash, a schema it cannot compile) is logged and left out: plugins
 * can still call it.
 */
export function exposeMcpTools(options: ExposeMcpToolsOptions): ExposedMcpTools {
  const { registry, server, offered, logger, call } = options;
  const names: string[] = [];
  const disposers: Disposer[] = [];
  for (const tool of offered) {
    const settings = server.tools[tool.name];
    if (settings === undefined || !settings.readonly_confirmed || !settings.expose) continue;
    const definition = mcpToolDefinition({
      server: server.name,
      tool,
      requestTimeoutMs: server.request_timeout_s * 1000,
      call: (args, signal) => call(tool.name, args, signal),
    });
    try {
      disposers.push(registry.register(MCP_TOOL_OWNER, definition));
      names.push(definition.name);
    } catch (error) {
      logger.warn(
        { server: server.name, tool: tool.name, modelName: definition.name, err: describeError(error) },
        `MCP server ${server.name}: tool ${tool.name} is not offered to the model (${error instanceof Error ? error.message : describeError(error)}); plugins can still call it`,
      );
    }
  }
  return {
    names,
    dispose: once(() => {
      for (const dispose of disposers.reverse()) dispose();
    }),
  };
}

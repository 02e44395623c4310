import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObjectSchema } from '../kernel/components/parameters-schema.js';
import { SideEffect } from '../tools/side-effect.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ToolExecutionResult } from '../tools/tool-execution-result.js';
import { mcpModelToolName } from './mcp-model-tool-name.js';
import { mcpObservation } from './mcp-observation.js';
import type { McpToolResult } from './mcp-types.js';
import { McpUnavailableError } from './mcp-unavailable-error.js';

/** Extra time the registry gives a call beyond the MCP request timeout, so the MCP timeout answers first, with its own reason. */
const REGISTRY_TIMEOUT_MARGIN_MS = 1000;

export interface McpToolDefinitionOptions {
  /** The server's name in `config/mcp.toml`. */
  server: string;
  /** The tool as the server listed it. */
  tool: Tool;
  /** The server's request timeout, in milliseconds. */
  requestTimeoutMs: number;
  /** Calls the tool as the model; throws `McpUnavailableError` when it may not be called now. */
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<McpToolResult>;
}

/** The tool's input schema as the model sees it, without the `$schema` dialect marker. */
function modelParameters(tool: Tool): JsonObjectSchema {
  const { $schema: _dialect, ...schema } = tool.inputSchema as Record<string, unknown>;
  return schema as JsonObjectSchema;
}

/**
 * A read-only registry tool that calls an MCP tool as the model. The registry validates the
 * arguments against the tool's input schema first. A result with `isError` becomes a failure
 * whose reason is the result's text; an `McpUnavailableError` a failure with its Chinese
 * reason.
 */
export function mcpToolDefinition(options: McpToolDefinitionOptions): ToolDefinition {
  const { server, tool, requestTimeoutMs, call } = options;
  const name = mcpModelToolName(server, tool.name);
  const description = tool.description?.trim() || tool.title?.trim() || `MCP 服务 ${server} 的工具 ${tool.name}`;
  const metadata = { mcpServer: server, mcpTool: tool.name };
  return {
    name,
    description,
    parameters: modelParameters(tool),
    sideEffect: SideEffect.READONLY,
    capabilities: [],
    timeoutMs: requestTimeoutMs + REGISTRY_TIMEOUT_MARGIN_MS,
    async execute(invocation, context) {
      let result: McpToolResult;
      try {
        result = await call(invocation.arguments, context.signal);
      } catch (error) {
        if (error instanceof McpUnavailableError) {
          return ToolExecutionResult.fail(name, error.message, { ...metadata, mcpUnavailable: error.kind });
        }
        throw error;
      }
      if (result.isError) {
        const reason = result.text.trim() === '' ? `MCP 服务 ${server} 的工具 ${tool.name} 返回了错误，但没有说明原因` : result.text;
        return ToolExecutionResult.fail(name, reason, metadata);
      }
      return ToolExecutionResult.ok(name, mcpObservation(result), metadata);
    },
  };
}

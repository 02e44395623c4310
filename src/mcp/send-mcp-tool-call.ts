import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Clock } from '../kernel/time/clock.js';
import type { McpToolResult } from './mcp-types.js';
import { mcpFailureResult, toMcpToolResult } from './to-mcp-tool-result.js';

export interface SendMcpToolCallOptions {
  client: Client;
  clock: Clock;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Milliseconds the request may take, on `clock`. */
  timeoutMs: number;
  /** Aborts the request (the server is told it was cancelled). */
  signal?: AbortSignal;
}

/** How one `tools/call` went. */
export type SentMcpToolCall =
  | { readonly type: 'answered'; readonly result: McpToolResult }
  | { readonly type: 'failed'; readonly result: McpToolResult; readonly error: unknown; /** The failure means the connection is gone. */ readonly connectionLost: boolean };

function errorText(error: unknown): string {
  return error instanceof Error && error.message.trim() !== '' ? error.message : describeError(error);
}

/**
 * Sends one `tools/call` and maps what comes back. Never rejects: the server's answer
 * (`isError` or not) is `answered`; a timeout on `clock` (or the SDK's own), a cancellation,
 * a protocol error or a transport failure is `failed` with an `isError` result whose text says
 * why.
 */
export async function sendMcpToolCall(options: SendMcpToolCallOptions): Promise<SentMcpToolCall> {
  const { client, clock, server, tool, args, timeoutMs, signal } = options;
  const timeout = new AbortController();
  const timer = clock.setTimeout(() => timeout.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  const requestSignal = signal === undefined ? timeout.signal : AbortSignal.any([timeout.signal, signal]);
  try {
    const answer = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs, signal: requestSignal });
    return { type: 'answered', result: toMcpToolResult(answer) };
  } catch (error) {
    const timedOut = timeout.signal.aborted || (error instanceof McpError && error.code === ErrorCode.RequestTimeout && signal?.aborted !== true);
    const connectionLost = !timedOut && signal?.aborted !== true && (!(error instanceof McpError) || error.code === ErrorCode.ConnectionClosed);
    let reason: string;
    if (timedOut) reason = `MCP 服务 ${server} 的工具 ${tool} 请求超时（${timeoutMs / 1000} 秒内没有结果）`;
    else if (signal?.aborted === true) reason = `MCP 服务 ${server} 的工具 ${tool} 调用已取消`;
    else reason = `MCP 服务 ${server} 的工具 ${tool} 请求失败：${errorText(error)}`;
    return { type: 'failed', result: mcpFailureResult(reason), error, connectionLost };
  } finally {
    clock.clearTimeout(timer);
  }
}

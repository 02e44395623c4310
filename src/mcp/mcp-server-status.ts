/**
 * Where a configured MCP server stands:
 * - `disabled`: `enabled = false`, never started;
 * - `connecting`: a connection attempt is under way;
 * - `connected`: initialized, its tools listed;
 * - `refused`: it negotiated a protocol version outside its `protocol_versions`; not retried;
 * - `disconnected`: it failed to connect or dropped (a reconnect is scheduled), or the service stopped.
 */
export type McpServerState = 'disabled' | 'connecting' | 'connected' | 'refused' | 'disconnected';

/** One server as the console and the logs show it. */
export interface McpServerStatus {
  /** Its name in `config/mcp.toml`. */
  readonly name: string;
  /** Where it stands now (see {@link McpServerState}). */
  readonly state: McpServerState;
  /** The protocol version it negotiated, once it did. */
  readonly protocolVersion?: string;
  /** The names of the tools it offers (as listed when it last connected); empty unless connected. */
  readonly tools: readonly string[];
  /** Why it is not connected, in Chinese (the same words `McpUnavailableError` uses). */
  readonly reason?: string;
}

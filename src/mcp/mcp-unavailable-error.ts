import { MoonglassError } from '../kernel/errors/moonglass-error.js';

/** Why an MCP tool cannot be called now. */
export type McpUnavailableKind = 'not_listed' | 'not_readonly' | 'not_connected' | 'quota_spent' | 'not_configured';

/** An MCP tool cannot be called now; `message` is the Chinese reason a person reads. */
export class McpUnavailableError extends MoonglassError {
  /** The server asked for, by its name in `config/mcp.toml`. */
  readonly server: string;
  /** The tool asked for, by its name on the server. */
  readonly tool: string;
  /** Why it cannot be called: a code to branch on (`message` is for people). */
  readonly kind: McpUnavailableKind;

  constructor(server: string, tool: string, kind: McpUnavailableKind, reason: string) {
    super('MG_MCP_UNAVAILABLE', reason);
    this.server = server;
    this.tool = tool;
    this.kind = kind;
  }
}

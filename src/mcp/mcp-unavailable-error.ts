import { MoonglassError } from '../kernel/errors/moonglass-error.js';

/** Why an MCP tool cannot be called now. */
export type McpUnavailableKind = 'not_listed' | 'not_readonly' | 'not_connected' | 'quota_spent' | 'not_configured';

/** An MCP tool cannot be called now; `message` is the Chinese reason a person reads. */
export class McpUnavailableError extends MoonglassError {
  readonly server: string;
  readonly tool: string;
  readonly kind: McpUnavailableKind;

  constructor(server: string, tool: string, kind: McpUnavailableKind, reason: string) {
    super('MG_MCP_UNAVAILABLE', reason);
    this.server = server;
    this.tool = tool;
    this.kind = kind;
  }
}

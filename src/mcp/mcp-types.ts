/**
 * One content block of an MCP tool result, as the server sent it (the MCP spec's content
 * types; the host does not check the blocks, so read them defensively).
 */
export type McpContentItem =
  | {
      /** Text meant to be read; these blocks make up {@link McpToolResult.text}. */
      type: 'text';
      /** The text. */
      text: string;
    }
  | {
      /** A picture. */
      type: 'image';
      /** The image bytes, base64-encoded. */
      data: string;
      /** Its media type, e.g. `image/png`. */
      mimeType: string;
    }
  | {
      /** A sound clip. */
      type: 'audio';
      /** The audio bytes, base64-encoded. */
      data: string;
      /** Its media type, e.g. `audio/wav`. */
      mimeType: string;
    }
  | {
      /** A pointer to a resource the server offers, not its content. */
      type: 'resource_link';
      /** The resource's URI, to read from the server. */
      uri: string;
      /** The resource's name. */
      name: string;
      /** Its media type, when the server gives one. */
      mimeType?: string;
      /** What it is, when the server says. */
      description?: string;
    }
  | {
      /** A resource embedded with its content. */
      type: 'resource';
      /** The resource: text in `text`, or binary base64-encoded in `blob`. */
      resource: {
        /** The resource's URI. */
        uri: string;
        /** Its media type, when the server gives one. */
        mimeType?: string;
        /** Its content, for a text resource (not included in {@link McpToolResult.text}). */
        text?: string;
        /** Its bytes, base64-encoded, for a binary resource. */
        blob?: string;
      };
    };

/** What `ctx.mcp.callTool` resolves to. */
export interface McpToolResult {
  /** The content blocks, in order, as received. */
  readonly items: readonly McpContentItem[];
  /** Every text block's text, joined in order with newlines. */
  readonly text: string;
  /** The structured content as received (`structuredContent`); undefined when the tool gave none. The plugin decides whether to read it as JSON. */
  readonly structured: unknown;
  /** The tool failed, or the server request failed; `text` says why. */
  readonly isError: boolean;
}

/** `this.ctx.mcp`: the MCP tools the bot owner configured, for a plugin to call. */
export interface PluginMcpAccess {
  /**
   * Calls `tool` (its name on the server) of `server` (its name in `config/mcp.toml`). Throws
   * `McpUnavailableError` (with a Chinese reason) when the tool may not be called now: not
   * listed, not confirmed read-only, its server not connected, or its daily quota spent. A
   * failing tool or server request resolves with `isError: true`.
   */
  callTool(server: string, tool: string, args?: Record<string, unknown>): Promise<McpToolResult>;
}

import * as z from 'zod';

/** The MCP file inside the config folder. */
export const MCP_CONFIG_FILE_NAME = 'mcp.toml';

/** The oldest and newest protocol versions a server may negotiate unless the owner says otherwise. */
export const DEFAULT_MCP_PROTOCOL_VERSIONS = { min: '2024-11-05', max: '2025-11-25' } as const;

const ProtocolVersionSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be an MCP protocol version date such as 2025-06-18' });

/** `[servers.<name>.tools.<tool>]`: one tool of a server the owner allows, keyed by its name on the server. */
export const McpToolConfigSchema = z.object({
  readonly_confirmed: z
    .boolean()
    .default(false)
    .describe('true once you, the bot owner, have checked that this tool only reads and changes nothing. Until then nobody may call it.'),
  expose: z
    .boolean()
    .default(true)
    .describe('Whether the model may choose this tool itself. false hides it from the model only; plugins can still call it.'),
  daily_quota: z
    .int({ error: 'must be a whole number of calls' })
    .min(0)
    .optional()
    .describe('Calls allowed per local calendar day, model and plugins together. Absent: unlimited; 0: none.'),
});

/** `[servers.<name>.protocol_versions]`: the MCP protocol versions accepted from a server. */
export const McpProtocolVersionsSchema = z
  .object({
    min: ProtocolVersionSchema.default(DEFAULT_MCP_PROTOCOL_VERSIONS.min).describe('The oldest protocol version accepted.'),
    max: ProtocolVersionSchema.default(DEFAULT_MCP_PROTOCOL_VERSIONS.max).describe('The newest protocol version accepted.'),
  })
  .refine((range) => range.min <= range.max, { path: ['max'], error: 'must not be older than min' });

const serverFields = {
  enabled: z.boolean().default(true).describe('false keeps the server configured but never started or connected.'),
  protocol_versions: McpProtocolVersionsSchema.prefault({}).describe(
    'The protocol versions accepted; a server that negotiates another one is not connected (features.toml [advanced] force_compatibility connects it with a warning).',
  ),
  request_timeout_s: z.number().positive().default(30).describe('Seconds a request (connecting, listing or a tool call) may take.'),
  tools: z
    .record(z.string().min(1), McpToolConfigSchema)
    .default({})
    .describe('The tools that may be called, one [servers.<name>.tools.<tool>] table each; tools not listed here are never called.'),
};

/** A server started as a child process that speaks MCP on its stdin and stdout. */
export const McpStdioServerConfigSchema = z.object({
  transport: z.literal('stdio').describe('"stdio": start a local program; "http": connect to a Streamable HTTP endpoint.'),
  command: z.string().min(1, { error: 'must name the program to start' }).describe('The program to start (stdio).'),
  args: z.array(z.string()).default([]).describe('Its command-line arguments (stdio).'),
  env: z
    .record(z.string(), z.string())
    .default({})
    .describe('Environment variables for it, added to HOME, PATH, USER and the like (stdio).'),
  cwd: z.string().min(1).optional().describe("Its working folder (stdio); absent: the bot's own."),
  ...serverFields,
});

/** A server reached over Streamable HTTP. */
export const McpHttpServerConfigSchema = z.object({
  transport: z.literal('http').describe('"stdio": start a local program; "http": connect to a Streamable HTTP endpoint.'),
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, e.g. http://127.0.0.1:8931/mcp' })
    .describe('The Streamable HTTP endpoint (http).'),
  ...serverFields,
});

/** `[servers.<name>]`: one MCP server. */
export const McpServerConfigSchema = z.discriminatedUnion('transport', [McpStdioServerConfigSchema, McpHttpServerConfigSchema], {
  error: 'must be "stdio" or "http"',
});

/** `config/mcp.toml`: the MCP servers the bot may use. An absent file means none. */
export const McpConfigSchema = z.object({
  servers: z.record(z.string().min(1), McpServerConfigSchema).default({}).describe('The MCP servers, one [servers.<name>] table each.'),
});

/** `config/mcp.toml` as validated, defaults filled in. */
export type McpConfig = z.output<typeof McpConfigSchema>;
/** One `[servers.<name>]` table as validated: a stdio or an http server (narrow on `transport`). */
export type McpServerConfig = z.output<typeof McpServerConfigSchema>;
/** A `[servers.<name>]` table with `transport = "stdio"`, as validated. */
export type McpStdioServerConfig = z.output<typeof McpStdioServerConfigSchema>;
/** A `[servers.<name>]` table with `transport = "http"`, as validated. */
export type McpHttpServerConfig = z.output<typeof McpHttpServerConfigSchema>;
/** One `[servers.<name>.tools.<tool>]` table as validated. */
export type McpToolConfig = z.output<typeof McpToolConfigSchema>;
/** One `[servers.<name>.protocol_versions]` table as validated. */
export type McpProtocolVersions = z.output<typeof McpProtocolVersionsSchema>;

/** A server's settings with its name from `config/mcp.toml`. */
export type NamedMcpServerConfig = McpServerConfig & { readonly name: string };

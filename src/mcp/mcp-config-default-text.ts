import type * as z from 'zod';
import { describeSchema } from '../kernel/config/zod-introspection.js';
import { McpHttpServerConfigSchema, McpProtocolVersionsSchema, McpStdioServerConfigSchema, McpToolConfigSchema } from './mcp-config.js';

/** Marks the start and the end of the example block in the default `mcp.toml` (tests uncomment it). */
export const MCP_EXAMPLE_BEGIN = '# ---- example: remove the leading "# " from the lines below ----';
export const MCP_EXAMPLE_END = '# ---- end of example ----';

/** `#   key   description` lines from the `.describe()` texts of `shape`. */
function fieldLines(shape: Record<string, z.ZodType>): string[] {
  const keys = Object.keys(shape);
  const width = Math.max(...keys.map((key) => key.length)) + 2;
  return keys.map((key) => `#   ${key.padEnd(width)}${describeSchema(shape[key]!) ?? ''}`);
}

const stdio = McpStdioServerConfigSchema.shape;
const http = McpHttpServerConfigSchema.shape;

/** The scalar fields of `[servers.<name>]`, transport-specific ones first. */
const SERVER_FIELDS: Record<string, z.ZodType> = {
  transport: stdio.transport,
  command: stdio.command,
  args: stdio.args,
  env: stdio.env,
  cwd: stdio.cwd,
  url: http.url,
  enabled: stdio.enabled,
  request_timeout_s: stdio.request_timeout_s,
};

/**
 * The commented `config/mcp.toml` written on first start: no servers, every key explained
 * (from the schema's descriptions, so the two never disagree), and an example that works
 * once uncommented.
 */
export const MCP_CONFIG_DEFAULT_TEXT = [
  '# moonglass MCP settings: the Model Context Protocol servers whose tools the bot may use.',
  '# Written on first start; edit freely. Delete this file to get a fresh default one at the next start.',
  '#',
  '# With no [servers.<name>] tables (as now) no MCP server is started or connected.',
  '#',
  '# A tool may be called only when it is listed under its server, you have confirmed that it',
  '# only reads (readonly_confirmed = true), its server is connected and its daily quota is not',
  '# spent. The model and the plugins share one counter per tool and local calendar day.',
  '#',
  '# [servers.<name>]   one MCP server; plugins and the logs call it by <name>',
  ...fieldLines(SERVER_FIELDS),
  '#',
  '# [servers.<name>.protocol_versions]',
  `#   ${describeSchema(stdio.protocol_versions) ?? ''}`,
  ...fieldLines(McpProtocolVersionsSchema.shape),
  '#',
  "# [servers.<name>.tools.<tool>]   <tool> is the tool's own name on the server",
  `#   ${describeSchema(stdio.tools) ?? ''}`,
  ...fieldLines(McpToolConfigSchema.shape),
  '#',
  MCP_EXAMPLE_BEGIN,
  '# [servers.memory]',
  '# transport = "stdio"',
  '# command = "npx"',
  '# args = ["-y", "@modelcontextprotocol/server-memory"]',
  '# env = { MEMORY_FILE_PATH = "data/memory.jsonl" }',
  '#',
  '# [servers.memory.tools.read_graph]',
  '# readonly_confirmed = true      # checked: it only reads the graph',
  '# daily_quota = 200',
  '#',
  '# [servers.memory.tools.search_nodes]',
  '# readonly_confirmed = true',
  '# expose = false                 # for plugins only; the model does not see it',
  '#',
  '# [servers.search]',
  '# transport = "http"',
  '# url = "http://127.0.0.1:8931/mcp"',
  '# request_timeout_s = 20',
  '#',
  '# [servers.search.protocol_versions]',
  '# min = "2025-03-26"',
  '# max = "2025-11-25"',
  '#',
  '# [servers.search.tools.web_search]',
  '# readonly_confirmed = true',
  '# daily_quota = 50',
  MCP_EXAMPLE_END,
  '',
].join('\n');

import { McpHttpServerConfigSchema, McpProtocolVersionsSchema, McpStdioServerConfigSchema, McpToolConfigSchema } from './mcp-config.js';

const SERVER_KEYS = {
  stdio: Object.keys(McpStdioServerConfigSchema.shape),
  http: Object.keys(McpHttpServerConfigSchema.shape),
} as const;
const ANY_SERVER_KEYS = [...new Set([...SERVER_KEYS.stdio, ...SERVER_KEYS.http])];
const PROTOCOL_VERSION_KEYS = Object.keys(McpProtocolVersionsSchema.shape);
const TOOL_KEYS = Object.keys(McpToolConfigSchema.shape);

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownIn(table: unknown, known: readonly string[], prefix: string, found: string[]): void {
  if (!isTable(table)) return;
  for (const key of Object.keys(table)) if (!known.includes(key)) found.push(prefix === '' ? key : `${prefix}.${key}`);
}

function serverKeys(server: Record<string, unknown>): readonly string[] {
  const transport = server['transport'];
  return transport === 'stdio' || transport === 'http' ? SERVER_KEYS[transport] : ANY_SERVER_KEYS;
}

/**
 * Dotted paths of keys in parsed `mcp.toml` data that the schema does not know, e.g.
 * `servers.search.tools.web_search.daily_qouta` or a stdio-only `command` on an http server.
 */
export function mcpConfigUnknownKeys(data: Record<string, unknown>): string[] {
  const found: string[] = [];
  unknownIn(data, ['servers'], '', found);
  const servers = data['servers'];
  if (!isTable(servers)) return found;
  for (const [name, server] of Object.entries(servers)) {
    if (!isTable(server)) continue;
    const prefix = `servers.${name}`;
    unknownIn(server, serverKeys(server), prefix, found);
    unknownIn(server['protocol_versions'], PROTOCOL_VERSION_KEYS, `${prefix}.protocol_versions`, found);
    const tools = server['tools'];
    if (!isTable(tools)) continue;
    for (const [tool, settings] of Object.entries(tools)) unknownIn(settings, TOOL_KEYS, `${prefix}.tools.${tool}`, found);
  }
  return found;
}

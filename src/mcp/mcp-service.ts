import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../kernel/errors/describe-error.js';
import { InvalidArgumentError } from '../kernel/errors/invalid-argument-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import type { McpUsageRepository } from '../storage/mcp-usage-repository.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { createMcpTransport, type McpTransportFactory } from './create-mcp-transport.js';
import { type ExposedMcpTools, exposeMcpTools } from './expose-mcp-tools.js';
import { localDayOf } from '../kernel/time/local-day.js';
import type { McpCaller } from './mcp-caller.js';
import type { McpConfig, NamedMcpServerConfig } from './mcp-config.js';
import { McpServerConnection } from './mcp-server-connection.js';
import type { McpServerStatus } from './mcp-server-status.js';
import type { McpToolResult, PluginMcpAccess } from './mcp-types.js';
import { mcpUnavailable } from './mcp-unavailable-reason.js';
import { sendMcpToolCall } from './send-mcp-tool-call.js';
import { mcpFailureResult } from './to-mcp-tool-result.js';

export interface McpServiceOptions {
  /** `config/mcp.toml`, as `loadMcpConfig` returns it. */
  config: McpConfig;
  /** Reconnect pauses, call timeouts and the quota's calendar day come from here. */
  clock: Clock;
  /** The time zone of the quotas' calendar day: `bot.toml [bot] timezone` (an IANA name); `''` or absent: the machine's. */
  timeZone?: string;
  logger: Logger;
  /** The per-day call counter (`database.mcpUsage`). */
  usage: McpUsageRepository;
  /** Where exposed tools are offered to the model; without it the model gets no MCP tools. */
  tools?: ToolRegistry;
  /** `features.toml [advanced] force_compatibility`: connect servers outside their protocol range, with a warning. */
  forceCompatibility: boolean;
  /** Makes the transport of one connection attempt; default: stdio child process or Streamable HTTP, per the config. */
  connectTransport?: McpTransportFactory;
  /** How the client introduces itself to servers; default `{ name: 'moonglass', version: '0.0.0' }`. */
  clientInfo?: { name: string; version: string };
}

/** Options of one call that only the host passes. */
export interface McpCallOptions {
  /** Cancels the request (the server is told); the call resolves with `isError`. */
  signal?: AbortSignal;
}

function isArgumentsObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The MCP servers of `config/mcp.toml`: keeps them connected in the background, offers the
 * exposed read-only tools to the model through the tool registry, and runs every call, from
 * the model or a plugin, through the same checks and the same daily counter.
 */
export class McpService {
  readonly #config: McpConfig;
  readonly #clock: Clock;
  readonly #timeZone: string;
  readonly #logger: Logger;
  readonly #usage: McpUsageRepository;
  readonly #registry: ToolRegistry | undefined;
  readonly #connections = new Map<string, McpServerConnection>();
  readonly #exposed = new Map<string, ExposedMcpTools>();
  #started = false;
  #stopped = false;

  constructor(options: McpServiceOptions) {
    this.#config = options.config;
    this.#clock = options.clock;
    this.#timeZone = options.timeZone ?? '';
    this.#logger = options.logger;
    this.#usage = options.usage;
    this.#registry = options.tools;
    const connectTransport = options.connectTransport ?? createMcpTransport;
    const clientInfo = options.clientInfo ?? { name: 'moonglass', version: '0.0.0' };
    for (const [name, settings] of Object.entries(options.config.servers)) {
      const server: NamedMcpServerConfig = { ...settings, name };
      const connection = new McpServerConnection({
        server,
        clock: options.clock,
        logger: options.logger,
        forceCompatibility: options.forceCompatibility,
        connectTransport,
        clientInfo,
        onToolsChanged: (tools) => this.#exposeTools(server, tools),
      });
      this.#connections.set(name, connection);
    }
  }

  /** Starts connecting every enabled server in the background; returns at once. Later calls do nothing. */
  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    const names = [...this.#connections.keys()];
    const enabled = names.filter((name) => this.#config.servers[name]?.enabled === true);
    this.#logger.info({ servers: names, enabled }, `MCP: ${names.length} servers configured, ${enabled.length} enabled`);
    for (const connection of this.#connections.values()) connection.start();
  }

  /**
   * Calls `tool` (its name on the server) of `server` (its name in `config/mcp.toml`) for
   * `caller`. Rejects with `McpUnavailableError`, checked in this order: the server is not
   * configured (`not_configured`), the tool is not listed under it (`not_listed`), not
   * confirmed read-only (`not_readonly`), the server is not connected (`not_connected`), the
   * tool's daily quota is spent (`quota_spent`). A call that passes is counted, then sent; a
   * tool the connected server does not offer is not sent nor counted and resolves with
   * `isError`, as does a failing tool, a protocol error, a transport failure or a timeout.
   */
  async callTool(server: string, tool: string, args: Record<string, unknown>, caller: McpCaller, options: McpCallOptions = {}): Promise<McpToolResult> {
    if (!isArgumentsObject(args)) throw new InvalidArgumentError('callTool', 'args', args, 'an object of named arguments');
    const serverConfig = Object.hasOwn(this.#config.servers, server) ? this.#config.servers[server] : undefined;
    const connection = this.#connections.get(server);
    if (serverConfig === undefined || connection === undefined) throw mcpUnavailable(server, tool, 'not_configured');
    const settings = Object.hasOwn(serverConfig.tools, tool) ? serverConfig.tools[tool] : undefined;
    if (settings === undefined) throw mcpUnavailable(server, tool, 'not_listed');
    if (!settings.readonly_confirmed) throw mcpUnavailable(server, tool, 'not_readonly');
    const client = connection.client;
    if (client === undefined) throw mcpUnavailable(server, tool, 'not_connected', { connection: connection.status().reason });

    const callerFields = { server, tool, caller: caller.kind, ...(caller.kind === 'plugin' ? { plugin: caller.pluginId } : {}) };
    if (!connection.offers(tool)) {
      const offered = connection.status().tools;
      this.#logger.warn(callerFields, `MCP server ${server} does not offer tool ${tool}; the call was not sent`);
      return mcpFailureResult(`MCP 服务 ${server} 没有提供工具 ${tool}（它提供：${offered.length === 0 ? '无' : offered.join('、')}），调用未发送`);
    }
    let counted: boolean;
    try {
      counted = this.#usage.tryCount(localDayOf(this.#clock.now(), this.#timeZone).key, server, tool, settings.daily_quota);
    } catch (error) {
      this.#logger.error({ ...callerFields, err: describeError(error) }, `MCP call ${server}/${tool} not sent: cannot count it against the daily quota`);
      return mcpFailureResult(`MCP 服务 ${server} 的工具 ${tool} 无法记录调用次数，调用未发送`);
    }
    if (!counted) throw mcpUnavailable(server, tool, 'quota_spent', { dailyQuota: settings.daily_quota ?? 0 });

    this.#logger.debug(callerFields, `MCP call ${server}/${tool}`);
    const sent = await sendMcpToolCall({
      client,
      clock: this.#clock,
      server,
      tool,
      args,
      timeoutMs: serverConfig.request_timeout_s * 1000,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (sent.type === 'failed') {
      this.#logger.warn({ ...callerFields, err: describeError(sent.error) }, `MCP call ${server}/${tool} failed: ${sent.result.text}`);
      if (sent.connectionLost) connection.reportLostConnection(client, sent.error);
    }
    return sent.result;
  }

  /** `ctx.mcp` of the plugin `pluginId`: only `callTool`, so the plugin never holds the service. */
  forPlugin(pluginId: string): PluginMcpAccess {
    if (typeof pluginId !== 'string' || pluginId.trim() === '') throw new InvalidArgumentError('forPlugin', 'pluginId', pluginId, 'a non-empty plugin id');
    const caller: McpCaller = Object.freeze({ kind: 'plugin', pluginId });
    return Object.freeze({
      callTool: (server: string, tool: string, args: Record<string, unknown> = {}): Promise<McpToolResult> => this.callTool(server, tool, args, caller),
    });
  }

  /** Every configured server, in config order, for the console and the logs. */
  status(): McpServerStatus[] {
    return [...this.#connections.values()].map((connection) => connection.status());
  }

  /** Closes every connection, cancels reconnects and removes the tools offered to the model. Later calls do nothing. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await Promise.all([...this.#connections.values()].map((connection) => connection.stop()));
    for (const exposed of this.#exposed.values()) exposed.dispose();
    this.#exposed.clear();
    this.#logger.debug('MCP: stopped');
  }

  #exposeTools(server: NamedMcpServerConfig, tools: readonly Tool[] | undefined): void {
    this.#exposed.get(server.name)?.dispose();
    this.#exposed.delete(server.name);
    if (tools === undefined || this.#registry === undefined || this.#stopped) return;
    const exposed = exposeMcpTools({
      registry: this.#registry,
      server,
      offered: tools,
      logger: this.#logger,
      call: (tool, args, signal) => this.callTool(server.name, tool, args, { kind: 'model' }, { signal }),
    });
    this.#exposed.set(server.name, exposed);
    if (exposed.names.length > 0) this.#logger.info({ server: server.name, tools: exposed.names }, `MCP server ${server.name}: offered to the model: ${exposed.names.join(', ')}`);
  }
}

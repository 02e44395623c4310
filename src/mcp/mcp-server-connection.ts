import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type Tool, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock, TimerHandle } from '../kernel/time/clock.js';
import type { McpTransportFactory } from './create-mcp-transport.js';
import { listAllMcpTools } from './list-all-mcp-tools.js';
import type { NamedMcpServerConfig } from './mcp-config.js';
import type { McpServerState, McpServerStatus } from './mcp-server-status.js';
import { protocolVersionProblem } from './protocol-version-problem.js';
import { ProtocolVersionRecordingTransport } from './protocol-version-recording-transport.js';
import { reconnectDelayMs } from './reconnect-delay.js';

/** Lines of a stdio server's stderr kept for the log line of a failed attempt. */
const STDERR_TAIL_LINES = 5;

export interface McpServerConnectionOptions {
  server: NamedMcpServerConfig;
  clock: Clock;
  logger: Logger;
  forceCompatibility: boolean;
  connectTransport: McpTransportFactory;
  /** `{ name, version }` the client introduces itself with. */
  clientInfo: { name: string; version: string };
  /** Told the offered tools whenever the server (re)connects or relists them, and `undefined` when it stops being connected. */
  onToolsChanged(tools: readonly Tool[] | undefined): void;
}

function errorText(error: unknown): string {
  return error instanceof Error && error.message.trim() !== '' ? error.message : describeError(error);
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/**
 * One configured MCP server: connects it in the background, checks the negotiated protocol
 * version, lists its tools, and reconnects after a failed attempt or a drop with a pause on
 * the injected clock (1 s, doubling, at most 60 s) until `stop()`. Connecting, dropping and
 * each distinct failure of an outage are logged once; repeats go to debug.
 */
export class McpServerConnection {
  readonly #server: NamedMcpServerConfig;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #options: McpServerConnectionOptions;
  #state: McpServerState;
  #reason: string | undefined;
  #protocolVersion: string | undefined;
  #tools: readonly Tool[] = [];
  #client: Client | undefined;
  #attemptClient: Client | undefined;
  #timer: TimerHandle | undefined;
  #generation = 0;
  #failures = 0;
  #stopped = false;
  /** Failure reasons already logged at warn in the current outage. */
  readonly #loggedFailures = new Set<string>();

  constructor(options: McpServerConnectionOptions) {
    this.#options = options;
    this.#server = options.server;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#state = options.server.enabled ? 'disconnected' : 'disabled';
    this.#reason = options.server.enabled ? '尚未开始连接' : '已在配置中停用';
  }

  /** Starts connecting in the background (a disabled server stays disabled). Returns at once. */
  start(): void {
    if (this.#stopped || this.#state !== 'disconnected' || this.#timer !== undefined) return;
    void this.#connect();
  }

  /** The client of a connected server; undefined otherwise. */
  get client(): Client | undefined {
    return this.#state === 'connected' ? this.#client : undefined;
  }

  /** Whether the connected server offers `tool`. */
  offers(tool: string): boolean {
    return this.#state === 'connected' && this.#tools.some((offered) => offered.name === tool);
  }

  status(): McpServerStatus {
    const connected = this.#state === 'connected';
    return {
      name: this.#server.name,
      state: this.#state,
      ...(this.#protocolVersion === undefined ? {} : { protocolVersion: this.#protocolVersion }),
      tools: connected ? this.#tools.map((tool) => tool.name) : [],
      ...(connected || this.#reason === undefined ? {} : { reason: this.#reason }),
    };
  }

  /**
   * A request failed in a way that means the connection is gone (an HTTP transport does not
   * notice on its own): close the client, which counts as a drop and schedules a reconnect.
   */
  reportLostConnection(client: Client, error: unknown): void {
    if (this.#client !== client || this.#state !== 'connected') return;
    this.#logger.debug({ server: this.#server.name, err: describeError(error) }, `MCP server ${this.#server.name}: a request failed at the transport; reconnecting`);
    this.#dropped(this.#generation, `连接已断开：${errorText(error)}`);
    void client.close().catch(() => undefined);
  }

  /** Closes the connection and any attempt under way, cancels the reconnect timer. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#generation++;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const wasConnected = this.#state === 'connected';
    const clients = [this.#client, this.#attemptClient].filter((client) => client !== undefined);
    this.#client = undefined;
    this.#attemptClient = undefined;
    if (this.#state !== 'disabled') {
      this.#state = 'disconnected';
      this.#reason = '服务已停止';
    }
    if (wasConnected) this.#options.onToolsChanged(undefined);
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  }

  #isCurrent(generation: number): boolean {
    return !this.#stopped && generation === this.#generation;
  }

  async #connect(): Promise<void> {
    const generation = ++this.#generation;
    const server = this.#server;
    const timeout = server.request_timeout_s * 1000;
    const stderrTail: string[] = [];
    this.#state = 'connecting';
    this.#reason = '正在连接';
    let client: Client | undefined;
    try {
      const inner = await this.#options.connectTransport(server);
      if (!this.#isCurrent(generation)) {
        await inner.close().catch(() => undefined);
        return;
      }
      this.#watchStderr(inner, stderrTail);
      const transport = new ProtocolVersionRecordingTransport(inner);
      client = new Client(this.#options.clientInfo, { capabilities: {} });
      this.#attemptClient = client;
      client.onerror = (error) => this.#logger.debug({ server: server.name, err: describeError(error) }, `MCP server ${server.name}: transport error`);
      client.onclose = () => this.#dropped(generation, '连接已断开');
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#relist(generation));
      await client.connect(transport, { timeout });
      if (!this.#isCurrent(generation)) return;
      const version = transport.protocolVersion;
      this.#protocolVersion = version;
      const problem = protocolVersionProblem(version, server.protocol_versions);
      if (problem !== undefined && !this.#options.forceCompatibility) {
        this.#refuse(client, problem);
        return;
      }
      if (problem !== undefined) {
        this.#logger.warn(
          { server: server.name, protocolVersion: version, allowed: server.protocol_versions },
          `MCP server ${server.name}: protocol version ${String(version)} is outside ${server.protocol_versions.min} to ${server.protocol_versions.max}; connected anyway because force_compatibility is on`,
        );
      }
      const tools = await listAllMcpTools(client, { timeout });
      if (!this.#isCurrent(generation)) return;
      this.#connected(client, tools);
    } catch (error) {
      if (!this.#isCurrent(generation)) return;
      if (client !== undefined) void client.close().catch(() => undefined);
      this.#failed(error, stderrTail);
    } finally {
      if (this.#attemptClient === client) this.#attemptClient = undefined;
      // A stopped service closes a client that finished connecting after `stop()`.
      if (this.#stopped && client !== undefined && this.#client !== client) void client.close().catch(() => undefined);
    }
  }

  #connected(client: Client, tools: readonly Tool[]): void {
    const server = this.#server;
    this.#client = client;
    this.#tools = tools;
    this.#state = 'connected';
    this.#reason = undefined;
    this.#failures = 0;
    this.#loggedFailures.clear();
    const offered = new Set(tools.map((tool) => tool.name));
    const missing = Object.keys(server.tools).filter((name) => !offered.has(name));
    this.#logger.info(
      { server: server.name, protocolVersion: this.#protocolVersion, tools: [...offered] },
      `MCP server ${server.name} connected (protocol ${String(this.#protocolVersion)}, ${tools.length} tools)`,
    );
    if (missing.length > 0) {
      this.#logger.warn({ server: server.name, missing }, `MCP server ${server.name} does not offer tools listed in mcp.toml: ${missing.join(', ')}`);
    }
    this.#options.onToolsChanged(tools);
  }

  #refuse(client: Client, problem: string): void {
    const server = this.#server;
    this.#state = 'refused';
    this.#reason = problem;
    this.#logger.error(
      { server: server.name, protocolVersion: this.#protocolVersion, allowed: server.protocol_versions },
      `MCP server ${server.name} not connected: protocol version ${String(this.#protocolVersion)} is outside ${server.protocol_versions.min} to ${server.protocol_versions.max} (widen protocol_versions in mcp.toml, or turn on force_compatibility in features.toml)`,
    );
    void client.close().catch(() => undefined);
  }

  #failed(error: unknown, stderrTail: readonly string[]): void {
    const server = this.#server;
    const reason = errorText(error);
    this.#client = undefined;
    this.#state = 'disconnected';
    this.#reason = `连接失败：${reason}`;
    const delay = this.#scheduleReconnect();
    const fields = { server: server.name, err: describeError(error), retryInMs: delay, ...(stderrTail.length > 0 ? { stderr: stderrTail.join('\n') } : {}) };
    if (this.#loggedFailures.has(reason)) {
      this.#logger.debug(fields, `MCP server ${server.name}: cannot connect again (${reason}); retrying in ${seconds(delay)}`);
      return;
    }
    this.#loggedFailures.add(reason);
    this.#logger.warn(fields, `MCP server ${server.name}: cannot connect (${reason}); retrying in ${seconds(delay)}, then with pauses growing to 60 s`);
  }

  #dropped(generation: number, reason: string): void {
    if (!this.#isCurrent(generation) || this.#state !== 'connected') return;
    const server = this.#server;
    this.#client = undefined;
    this.#state = 'disconnected';
    this.#reason = reason;
    this.#failures = 0;
    this.#loggedFailures.clear();
    this.#options.onToolsChanged(undefined);
    const delay = this.#scheduleReconnect();
    this.#logger.warn({ server: server.name, retryInMs: delay }, `MCP server ${server.name} disconnected; reconnecting in ${seconds(delay)}`);
  }

  #scheduleReconnect(): number {
    this.#failures++;
    const delay = reconnectDelayMs(this.#failures);
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      if (!this.#stopped) void this.#connect();
    }, delay);
    return delay;
  }

  async #relist(generation: number): Promise<void> {
    const client = this.#client;
    if (!this.#isCurrent(generation) || this.#state !== 'connected' || client === undefined) return;
    try {
      const tools = await listAllMcpTools(client, { timeout: this.#server.request_timeout_s * 1000 });
      if (!this.#isCurrent(generation) || this.#client !== client) return;
      this.#tools = tools;
      this.#logger.info({ server: this.#server.name, tools: tools.map((tool) => tool.name) }, `MCP server ${this.#server.name} changed its tools (${tools.length} now)`);
      this.#options.onToolsChanged(tools);
    } catch (error) {
      this.#logger.warn({ server: this.#server.name, err: describeError(error) }, `MCP server ${this.#server.name}: cannot relist its tools; keeping the previous list`);
    }
  }

  #watchStderr(transport: Transport, tail: string[]): void {
    if (!(transport instanceof StdioClientTransport)) return;
    const stream = transport.stderr;
    if (stream === null) return;
    let pending = '';
    stream.on('data', (chunk: Buffer | string) => {
      const lines = (pending + String(chunk)).split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.trim() === '') continue;
        tail.push(line);
        if (tail.length > STDERR_TAIL_LINES) tail.shift();
        this.#logger.debug({ server: this.#server.name, stderr: line }, `MCP server ${this.#server.name} stderr: ${line}`);
      }
    });
  }
}

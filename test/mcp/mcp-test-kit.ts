import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { createMemoryLogger, type LogRecord } from '../../src/kernel/logger/memory-logger.js';
import type { Logger } from '../../src/kernel/logger/logger.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import { type McpConfig, McpConfigSchema } from '../../src/mcp/mcp-config.js';
import type { McpServerState, McpServerStatus } from '../../src/mcp/mcp-server-status.js';
import { McpService, type McpServiceOptions } from '../../src/mcp/mcp-service.js';
import type { Database } from '../../src/storage/database.js';
import { openDatabase } from '../../src/storage/open-database.js';
import type { ToolContext } from '../../src/tools/tool-context.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';

/** The stdio fixture whose tools/list pages two tools at a time (see the file for its tools). */
export const PAGED_FIXTURE = fileURLToPath(new URL('../fixtures/mcp/paged-tools-server.mjs', import.meta.url));

/** The published `@modelcontextprotocol/server-memory` entry point. */
export const MEMORY_SERVER = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url));

/** `[servers.<name>]` data for the paged stdio fixture; `extra` is merged over it. */
export function pagedFixtureServer(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { transport: 'stdio', command: process.execPath, args: [PAGED_FIXTURE], ...extra };
}

/** `config/mcp.toml` data validated by the real schema, defaults applied. */
export function mcpConfig(servers: Record<string, unknown>): McpConfig {
  return McpConfigSchema.parse({ servers });
}

export interface McpHarness {
  service: McpService;
  clock: ManualClock;
  registry: ToolRegistry;
  database: Database;
  logger: Logger;
  records: LogRecord[];
}

export interface HarnessOptions extends Partial<Omit<McpServiceOptions, 'config' | 'clock' | 'logger' | 'usage'>> {
  clock?: ManualClock;
  database?: Database;
}

/**
 * Builds services over real transports, an in-memory (or given) database, a ManualClock and a
 * real tool registry; stops every service and closes the databases it opened after each test
 * (or call `stopAll` yourself from an `afterAll`).
 */
export function useMcpHarness(options: { cleanup?: 'each' | 'manual' } = {}): {
  make: (config: McpConfig, harnessOptions?: HarnessOptions) => McpHarness;
  stopAll: () => Promise<void>;
} {
  const made: { service: McpService; database?: Database }[] = [];
  const stopAll = async (): Promise<void> => {
    while (made.length > 0) {
      const { service, database } = made.pop()!;
      await service.stop();
      database?.close();
    }
  };
  if (options.cleanup !== 'manual') afterEach(stopAll);
  const make = (config: McpConfig, harnessOptions: HarnessOptions = {}): McpHarness => {
    const { logger, records } = createMemoryLogger('debug');
    const clock = harnessOptions.clock ?? new ManualClock(new Date(2026, 4, 10, 12, 0, 0).getTime());
    const ownDatabase = harnessOptions.database === undefined ? openDatabase({ file: ':memory:', logger }) : undefined;
    const database = harnessOptions.database ?? ownDatabase!;
    const registry = harnessOptions.tools ?? new ToolRegistry({ clock, logger });
    const service = new McpService({
      forceCompatibility: false,
      ...harnessOptions,
      config,
      clock,
      logger,
      usage: database.mcpUsage,
      tools: registry,
    });
    made.push({ service, ...(ownDatabase === undefined ? {} : { database: ownDatabase }) });
    return { service, clock, registry, database, logger, records };
  };
  return { make, stopAll };
}

/** The status of `server`, failing when it is not configured. */
export function statusOf(service: Pick<McpService, 'status'>, server: string): McpServerStatus {
  const status = service.status().find((entry) => entry.name === server);
  if (status === undefined) throw new Error(`no status for ${server}`);
  return status;
}

/**
 * Waits (on real time: a child process or a socket is on the other side) until `server`
 * reaches `state`; fails after 10 s with the last status.
 */
export async function waitForState(service: Pick<McpService, 'status'>, server: string, state: McpServerState): Promise<McpServerStatus> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const status = statusOf(service, server);
    if (status.state === state) return status;
    if (Date.now() > deadline) throw new Error(`server ${server} did not reach ${state}: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A tool context for registry calls in a stream without capabilities. */
export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { streamId: 'stream-mcp', signal, capabilities: new Set() };
}

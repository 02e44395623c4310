import type { Logger } from '../kernel/logger/logger.js';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';
import { createHost } from './create-host.js';

export interface InspectPluginsOptions {
  configDir: string;
  dataDir: string;
  /** Validated settings (see `checkConfigFiles`), so no host config file is written. */
  appConfig: unknown;
  botConfig: unknown;
  modelsConfig: unknown;
  logger: Logger;
}

/**
 * Loads every plugin exactly as `start` would (discovery, manifest, versions, entry, config,
 * registration, onLoad) on a throwaway host with an in-memory database and no adapter, then
 * unloads them, and returns what became of each. `ctx.mcp` has no servers there. Plugins' own `config.toml` files are
 * written or completed as at start.
 */
export async function inspectPlugins(options: InspectPluginsOptions): Promise<readonly PluginStatus[]> {
  const host = createHost({
    configDir: options.configDir,
    dataDir: options.dataDir,
    appConfig: options.appConfig as never,
    botConfig: options.botConfig as never,
    modelsConfig: options.modelsConfig as never,
    // No MCP servers: inspecting plugins must not start the owner's MCP server processes.
    mcpConfig: {},
    database: 'memory',
    logger: options.logger,
  });
  await host.start();
  try {
    return host.plugins.list().map((status) => ({ ...status, signatures: [...status.signatures] }));
  } finally {
    await host.stop('plugin inspection finished');
  }
}

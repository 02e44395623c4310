import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../kernel/logger/logger.js';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';
import { importPluginEntry } from '../plugin-system/loader/import-plugin-entry.js';
import type { SideEffect } from '../tools/side-effect.js';
import { createHost } from './create-host.js';
import { defaultPluginRoots } from './default-plugin-roots.js';
import { errorLocation, type SourceLocation } from '../kernel/errors/error-location.js';
import { type PluginConfigChange, pluginConfigChanges, snapshotPluginConfigs } from './plugin-config-changes.js';
import { toolsHiddenByTier } from './startup-report.js';

export interface InspectPluginsOptions {
  configDir: string;
  /** Validated settings (see `checkConfigFiles`), so no host config file is written. */
  appConfig: unknown;
  botConfig: unknown;
  modelsConfig: unknown;
  logger: Logger;
  /** The bot project whose plugins/ and plugin packages are loaded; default the working folder. */
  projectDir?: string;
}

/** A tool a loaded plugin registered. */
export interface InspectedTool {
  name: string;
  owner: string;
  sideEffect: SideEffect;
}

/** What became of every plugin, and what the inspection left behind. */
export interface PluginInspection {
  statuses: readonly PluginStatus[];
  tools: readonly InspectedTool[];
  /** Tools the model would not be offered because of their side-effect tier (see `toolsHiddenByTier`). */
  hiddenTools: readonly string[];
  /** Plugin `config.toml` files the inspection wrote or completed, as a start would. */
  configChanges: readonly PluginConfigChange[];
  /** For a plugin whose entry failed to import: where in its files the error arose, by folder. */
  errorLocations: ReadonlyMap<string, SourceLocation>;
}

/**
 * Loads every plugin exactly as `start` would (discovery, manifest, versions, entry, config,
 * registration, onLoad) on a throwaway host with an in-memory database, no adapter, no MCP
 * server and a scratch data folder (removed afterwards, so `data/` is not touched), then
 * unloads them, and returns what became of each. Plugins' own `config.toml` files are
 * written or completed as at start; `configChanges` names each one.
 */
export async function inspectPlugins(options: InspectPluginsOptions): Promise<PluginInspection> {
  const roots = defaultPluginRoots(options.projectDir);
  const before = snapshotPluginConfigs(roots, options.configDir);
  const scratchData = mkdtempSync(join(tmpdir(), 'moonglass-check-'));
  const host = createHost({
    configDir: options.configDir,
    dataDir: scratchData,
    appConfig: options.appConfig as never,
    botConfig: options.botConfig as never,
    modelsConfig: options.modelsConfig as never,
    // No MCP servers: inspecting plugins must not start the owner's MCP server processes.
    mcpConfig: {},
    database: 'memory',
    pluginRoots: roots,
    logger: options.logger,
  });
  let statuses: PluginStatus[];
  let tools: InspectedTool[];
  let hiddenTools: string[];
  try {
    await host.start();
    statuses = host.plugins.list().map((status) => ({ ...status, signatures: [...status.signatures] }));
    tools = host.tools.list().map(({ owner, definition }) => ({ name: definition.name, owner, sideEffect: definition.sideEffect }));
    hiddenTools = toolsHiddenByTier(host.tools);
  } finally {
    await host.stop('plugin inspection finished');
    rmSync(scratchData, { recursive: true, force: true });
  }
  const errorLocations = new Map<string, SourceLocation>();
  for (const status of statuses.filter((entry) => entry.state === 'failed')) {
    // The status has the location when the error's stack points into the plugin's files; an
    // entry that failed to import without one is imported again to read its error.
    const location = status.location ?? (status.stage === 'entry' ? await locateImportFailure(status.folder) : undefined);
    if (location !== undefined) errorLocations.set(status.folder, location);
  }
  return { statuses, tools, hiddenTools, configChanges: pluginConfigChanges(before, snapshotPluginConfigs(roots, options.configDir)), errorLocations };
}

/**
 * The status keeps only the reason's text, so the entry is imported once more (under a new
 * URL, as the loader does) to read the error's stack. A module that failed at import has
 * nothing loaded to disturb; this runs only for `moonglass plugins` and `check`.
 */
async function locateImportFailure(folder: string): Promise<SourceLocation | undefined> {
  try {
    await importPluginEntry(folder);
    return undefined;
  } catch (error) {
    return errorLocation(error, folder);
  }
}

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MarketProgress, PluginMarket, PluginMarketOutcome, PluginMarketResult } from '../admin/plugin-market.js';
import { describeError } from '../kernel/errors/describe-error.js';
import { pluginPackageFolders } from '../plugin-system/discovery/plugin-packages.js';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';
import { changePluginPackages, type InstalledPluginPackage, type PluginPackageChange, type PluginPackageChangeResult } from './plugin-commands/change-plugin-packages.js';
import { type FoundPluginPackage, findPluginPackages, RegistryUnreachableError } from './plugin-commands/find-plugin-packages.js';
import type { Host } from './create-host.js';

export interface PluginMarketOptions {
  /** The bot project (the folder with package.json, whose node_modules holds the plugin packages). */
  projectDir: string;
  /** npm's `--registry`; default: the registry npm is configured with in the project. */
  registry?: string;
}

function installedVersionOf(folder: string): string | undefined {
  try {
    const version = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

function describeStatus(status: PluginStatus): string {
  const name = `${status.id ?? status.folder}${status.version === undefined ? '' : ` ${status.version}`}`;
  return status.state === 'loaded' || status.state === 'disabled' ? `${name} ${status.state}` : `${name} ${status.state} (${status.stage ?? 'load'}: ${status.reason ?? 'no reason given'})`;
}

/**
 * The web console's plugin market for a running host: searches with findPluginPackages,
 * changes the project's packages with changePluginPackages (which refuses an incompatible
 * host range and restores the project when the result does not load), and brings the running
 * host along: a package installed is loaded with `plugins.loadFolder`, one updated is reloaded
 * keeping the running version until the new one loads, one to be removed is unloaded first
 * (and loaded again when npm could not remove it). No restart.
 */
export function createPluginMarket(host: Host, options: PluginMarketOptions): PluginMarket {
  const projectDir = resolve(options.projectDir);
  const packageFolder = (name: string) => join(projectDir, 'node_modules', ...name.split('/'));
  const statusOfFolder = (folder: string) => host.plugins.list().find((status) => status.folder === folder);
  const change = (request: PluginPackageChange, progress: MarketProgress) =>
    changePluginPackages(request, {
      projectDir,
      configDir: host.info.configDir,
      ...(options.registry === undefined ? {} : { registry: options.registry }),
      progress,
      // The running host is the check: the plugin loads once, in the process that runs it, and
      // a second host in this process never loads every plugin again (one that binds a port in
      // its onLoad would fail there). What does not load here is undone by changePluginPackages.
      check: (installed) => loadIntoRunningHost(installed, progress),
    });

  /**
   * A new package's folder loads (`loadFolder`); an updated one whose plugin runs is reloaded
   * keeping the running version until the new one has loaded, so a bad update does not take
   * a working plugin down (and the status carries the new manifest's version).
   */
  async function loadIntoHost(folder: string): Promise<{ status: PluginStatus; kept?: string }> {
    const listed = statusOfFolder(folder);
    if (listed?.id === undefined || listed.state !== 'loaded') return { status: await host.plugins.loadFolder(folder) };
    const outcome = await host.plugins.reloadKeepingPrevious(listed.id);
    if (outcome.result !== 'kept') return { status: outcome.status };
    return { status: outcome.status, kept: `${outcome.failure?.stage ?? 'load'}: ${outcome.failure?.reason ?? 'no reason given'}` };
  }

  /** `changePluginPackages`' check: what npm installed loads into the running host, or why not. */
  async function loadIntoRunningHost(installed: readonly InstalledPluginPackage[], progress: MarketProgress): Promise<string | undefined> {
    const problems: string[] = [];
    for (const entry of installed) {
      progress(`loading ${entry.name} ${entry.version} into the running host`);
      const listedBefore = statusOfFolder(entry.folder) !== undefined;
      const { status, kept } = await loadIntoHost(entry.folder);
      if (kept !== undefined) {
        problems.push(`${entry.name}@${entry.version} did not load, the previous version keeps running (${kept})`);
        continue;
      }
      if (status.state === 'loaded' || status.state === 'disabled') {
        progress(describeStatus(status));
        continue;
      }
      problems.push(`${entry.name}@${entry.version} (plugin ${status.id ?? status.folder}) did not load: ${status.stage ?? status.state}: ${(status.reason ?? '').split('\n').join(' ')}`);
      // A new package that failed leaves the host's list with npm's undo; a duplicate id names another plugin, which stays.
      if (!listedBefore && status.id !== undefined && status.stage !== 'duplicate') await host.plugins.removePlugin(status.id).catch(() => undefined);
    }
    return problems.length === 0 ? undefined : problems.join('; ');
  }

  /** The outcome of an install or update whose packages already loaded in the running host (the check). */
  function loadInstalled(verb: string, result: PluginPackageChangeResult): PluginMarketOutcome {
    if (!result.ok || result.installed.length === 0) return { ok: result.ok, summary: result.summary };
    const done = result.installed.map((installed) => {
      const status = statusOfFolder(installed.folder);
      const from = installed.previousVersion === undefined ? '' : `${installed.previousVersion} → `;
      return `${verb} ${installed.name} ${from}${installed.version}: ${status === undefined ? 'not listed by the host' : describeStatus(status)}`;
    });
    host.logger.info({ installed: result.installed.map((entry) => `${entry.name}@${entry.version}`) }, 'plugin packages changed from the web console and loaded without a restart');
    return { ok: true, summary: done.join('; ') };
  }

  return {
    async search(words) {
      const installed = new Map(pluginPackageFolders(projectDir).map((folder) => [resolve(folder), folder]));
      try {
        const found = await findPluginPackages(words, options.registry);
        const results = found.packages.map((entry: FoundPluginPackage): PluginMarketResult => {
          const folder = packageFolder(entry.name);
          const installedVersion = installed.has(folder) ? installedVersionOf(folder) : undefined;
          const status = installedVersion === undefined ? undefined : statusOfFolder(folder);
          return {
            ...entry,
            ...(installedVersion === undefined ? {} : { installedVersion }),
            ...(status?.id === undefined ? {} : { plugin: { id: status.id, state: status.state } }),
          };
        });
        return { reachable: true, registry: found.registry, results };
      } catch (error) {
        if (!(error instanceof RegistryUnreachableError)) throw error;
        // The page names the registry itself: the problem is npm's reason alone.
        const problem = error.message.replace(`could not search the registry ${error.registry}: `, '');
        return { reachable: false, registry: error.registry, problem, results: [] };
      }
    },

    async install(name, progress) {
      return loadInstalled('installed', await change({ kind: 'add', spec: name }, progress));
    },

    async update(name, progress) {
      return loadInstalled('updated', await change({ kind: 'update', name }, progress));
    },

    async remove(name, progress) {
      const folder = packageFolder(name);
      const status = statusOfFolder(folder);
      const pluginId = status?.id;
      if (pluginId !== undefined) {
        progress(`unloading ${pluginId} from the running host`);
        await host.plugins.removePlugin(pluginId);
      }
      const result = await change({ kind: 'remove', name }, progress);
      if (result.ok) {
        host.logger.info({ name, id: pluginId }, 'plugin package removed from the web console; its plugin was unloaded without a restart');
        return { ok: true, summary: pluginId === undefined ? result.summary : `${result.summary}; ${pluginId} unloaded from the running host` };
      }
      if (pluginId === undefined) return { ok: false, summary: result.summary };
      // npm left the package in place: the plugin runs again as before.
      progress(`loading ${pluginId} again: the package is still installed`);
      let again: string;
      try {
        again = describeStatus(await host.plugins.loadFolder(folder));
      } catch (error) {
        again = `${pluginId} could not be loaded again: ${describeError(error)}`;
      }
      progress(again);
      return { ok: false, summary: `${result.summary}; the package is still installed and its plugin was loaded again: ${again}` };
    },
  };
}

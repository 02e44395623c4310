import { existsSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describeError } from '../../kernel/errors/describe-error.js';
import type { Logger } from '../../kernel/logger/logger.js';
import { pluginConfigFile } from '../config/plugin-config-file.js';
import { PLUGIN_CONFIG_FILE_NAME } from '../config/plugin-config.js';
import { readEnabledFlag } from '../config/read-enabled-flag.js';
import { ManifestError } from '../errors/manifest-error.js';
import { checkHostCompatibility } from '../manifest/host-compatibility.js';
import type { PluginManifest } from '../manifest/plugin-manifest.js';
import { readPluginManifest } from '../manifest/read-plugin-manifest.js';
import { listPluginFolders } from './list-plugin-folders.js';
import type { PluginRoot } from './plugin-root.js';
import { newStatus, type PluginStatus } from './plugin-status.js';

/** A plugin that passed discovery: its code may now be imported. */
export interface DiscoveredPlugin {
  folder: string;
  root: PluginRoot;
  manifest: PluginManifest;
  status: PluginStatus;
}

export interface DiscoverOptions {
  roots: readonly PluginRoot[];
  hostVersion: string;
  forceCompatibility: boolean;
  logger: Logger;
  /** The host's config folder: plugins whose own folder is not writable keep their config under it (see `pluginConfigFile`). */
  configDir: string;
  /** Notices already given in this process (compatibility mode is announced once per plugin). */
  compatibilityNotices: Set<string>;
}

/**
 * Why `folder` (or its manifest or entry file) reaches outside its root through a symbolic
 * link, or undefined when everything it holds lives inside the root. A plugin's code and
 * files must be where the owner put plugins; a link could otherwise load anything. A plugin
 * package may itself be a link (npm links `file:` dependencies and `npm link`ed packages):
 * the project's package.json names it, so only its manifest and entry must stay inside it.
 */
function outsideRoot(root: PluginRoot, folder: string): string | undefined {
  let rootReal: string;
  let real: string;
  try {
    rootReal = realpathSync(root.path);
    real = realpathSync(folder);
  } catch (error) {
    return `the folder cannot be resolved: ${describeError(error)}`;
  }
  if (root.packages !== true && !real.startsWith(rootReal + sep)) return `the folder is a link to ${real}, outside the plugin root ${rootReal}`;
  for (const file of ['_manifest.json', 'plugin.ts', 'plugin.js']) {
    const path = join(folder, file);
    if (!existsSync(path)) continue;
    const target = realpathSync(path);
    if (!target.startsWith(real + sep)) return `${file} is a link to ${target}, outside the plugin's folder`;
  }
  return undefined;
}

/** How a status names the config file: `config.toml` beside the manifest, else its full path. */
export function configFileLabel(folder: string, file: string): string {
  return file === join(folder, PLUGIN_CONFIG_FILE_NAME) ? PLUGIN_CONFIG_FILE_NAME : file;
}

/**
 * Scans the roots in order (built-in first, then `plugins/`, then the project's plugin
 * packages), each root's folders in its order (see `listPluginFolders`), and decides for each
 * folder, without running any plugin code: manifest valid, a tool plugin, first with its id,
 * host version in range, not switched off by a literal `enabled = false`.
 */
export function discoverPlugins(options: DiscoverOptions): { plugins: DiscoveredPlugin[]; statuses: PluginStatus[] } {
  const plugins: DiscoveredPlugin[] = [];
  const statuses: PluginStatus[] = [];
  const seen = new Map<string, string>();
  for (const root of options.roots) {
    for (const folder of listPluginFolders(root, options.logger)) {
      const { status, plugin } = discoverFolder(root, folder, seen, options);
      statuses.push(status);
      if (plugin !== undefined) plugins.push(plugin);
    }
  }
  return { plugins, statuses };
}

/**
 * Discovery's decision for one folder of `root` (see `discoverPlugins`): its status, and the
 * plugin when its code may be imported. `seen` holds the ids already taken, each with the
 * folder that took it; a new id is added to it.
 */
export function discoverFolder(
  root: PluginRoot,
  folder: string,
  seen: Map<string, string>,
  options: Omit<DiscoverOptions, 'roots'>,
): { status: PluginStatus; plugin?: DiscoveredPlugin } {
  const { logger } = options;
  const status = newStatus(folder, root.builtIn);
  const skip = (stage: PluginStatus['stage'], reason: string): { status: PluginStatus } => {
    status.state = 'skipped';
    status.stage = stage;
    status.reason = reason;
    return { status };
  };

  const escape = outsideRoot(root, folder);
  if (escape !== undefined) {
    logger.error({ directory: folder, reason: escape }, '插件目录指向插件根目录之外，已拒绝加载');
    return skip('location', escape);
  }

  let manifest: PluginManifest;
  try {
    manifest = readPluginManifest(folder);
  } catch (error) {
    const reason = ManifestError.isInstance(error) ? error.message : describeError(error);
    logger.error({ directory: folder, error: reason }, '插件清单加载失败，已跳过该插件');
    return skip('manifest', reason);
  }
  status.id = manifest.id;
  status.name = manifest.name;
  status.version = manifest.version;

  if (manifest.plugin_type !== 'tool') {
    logger.warn({ directory: folder, plugin_type: manifest.plugin_type }, '插件根目录下发现非工具插件，已忽略');
    return skip('type', `plugin_type is "${manifest.plugin_type}"; adapters are loaded by name by the process entry, not from plugin roots`);
  }

  const kept = seen.get(manifest.id);
  if (kept !== undefined) {
    logger.warn({ id: manifest.id, kept, ignored: folder }, '插件 id 冲突，先扫描到的生效，后者被忽略');
    return skip('duplicate', `id "${manifest.id}" is already taken by ${kept}, found first; ${folder} is skipped`);
  }
  seen.set(manifest.id, folder);

  const compatibility = checkHostCompatibility(manifest, options.hostVersion, root.builtIn);
  if (compatibility.verdict === 'incompatible') {
    if (!options.forceCompatibility || root.builtIn) {
      logger.warn({ id: manifest.id, directory: folder, reason: compatibility.reason }, '插件与宿主版本不兼容，已跳过该插件');
      return skip('version', compatibility.reason);
    }
    status.compatibilityMode = true;
    logger.warn(
      { id: manifest.id, directory: folder, reason: compatibility.reason },
      'force_compatibility 已开启：版本不符的插件仍被加载 (loading despite the version mismatch)',
    );
  } else if (compatibility.verdict === 'patch_above_max') {
    status.compatibilityMode = true;
    if (!options.compatibilityNotices.has(manifest.id)) {
      options.compatibilityNotices.add(manifest.id);
      logger.warn({ id: manifest.id, directory: folder }, compatibility.notice);
    }
  }

  const configFile = pluginConfigFile(folder, manifest.id, options.configDir);
  if (!readEnabledFlag(folder, logger, configFile)) {
    status.state = 'disabled';
    status.stage = 'switch';
    status.reason = `${configFileLabel(folder, configFile)}: [plugin] enabled = false`;
    logger.info({ id: manifest.id, directory: folder }, '工具插件已在自身配置中关闭');
    return { status };
  }
  return { status, plugin: { folder, root, manifest, status } };
}

import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import semver from 'semver';
import { pluginConfigFile } from '../../plugin-system/config/plugin-config-file.js';
import { PLUGIN_PACKAGE_KEYWORD, pluginPackageFolders } from '../../plugin-system/discovery/plugin-packages.js';
import { readPluginManifest } from '../../plugin-system/manifest/read-plugin-manifest.js';
import { HOST_VERSION } from '../host-version.js';
import { judgeCandidate } from './candidate-manifest.js';
import { type InstalledCheck, type InstalledPluginPackage, throwawayHostCheck } from './check-installed-loads.js';
import { effectiveRegistry } from './find-plugin-packages.js';
import { npmErrorLine, registryArgs } from './npm-error-line.js';
import { parsePackageSpec } from './package-spec.js';
import { type ProjectSnapshot, restoreSnapshot, takeSnapshot } from './project-snapshot.js';
import { RegistryLookupError, type VersionDocument, versionNpmPicks, viewVersions } from './registry-versions.js';
import { runNpm } from './run-npm.js';

export type { InstalledPluginPackage } from './check-installed-loads.js';

/** What `moonglass plugin add|update|remove` (or the web console's market) asks for. */
export type PluginPackageChange = { kind: 'add'; spec: string } | { kind: 'update'; name?: string } | { kind: 'remove'; name: string };

export interface ChangePluginPackagesOptions {
  /** The bot project: its package.json, lockfile and node_modules. */
  projectDir: string;
  configDir: string;
  /** `--registry`; otherwise npm's own setting for the project. */
  registry?: string;
  /** Human-readable lines as the change goes on. */
  progress?: (line: string) => void;
  /** Whether what was installed loads; default: every plugin on a throwaway host (`throwawayHostCheck`). */
  check?: InstalledCheck;
  /** Default: this host's version. */
  hostVersion?: string;
}

export interface PluginPackageChangeResult {
  ok: boolean;
  /** One line: what was done, or why nothing was. */
  summary: string;
  /** Packages added or updated, as now installed. */
  installed: InstalledPluginPackage[];
  removed: { name: string; folder: string; version?: string }[];
}

const NPM_QUIET = ['--no-audit', '--no-fund', '--loglevel=warn'];
/** Installing may take long on a slow mirror; past this npm is stopped and the change undone. */
const INSTALL_TIMEOUT_MS = 600_000;

interface Context extends Required<Omit<ChangePluginPackagesOptions, 'registry'>> {
  registry: string | undefined;
}

function failed(summary: string): PluginPackageChangeResult {
  return { ok: false, summary, installed: [], removed: [] };
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

function dependenciesOf(projectDir: string): Record<string, string> {
  const dependencies = readJson(join(projectDir, 'package.json'))['dependencies'];
  return typeof dependencies === 'object' && dependencies !== null ? (dependencies as Record<string, string>) : {};
}

function packageFolder(projectDir: string, name: string): string {
  return join(projectDir, 'node_modules', ...name.split('/'));
}

function installedVersion(projectDir: string, name: string): string | undefined {
  const file = join(packageFolder(projectDir, name), 'package.json');
  if (!existsSync(file)) return undefined;
  const version = readJson(file)['version'];
  return typeof version === 'string' ? version : undefined;
}

function npm(context: Context, args: readonly string[]) {
  return runNpm([...args, ...NPM_QUIET, ...registryArgs(context.registry)], INSTALL_TIMEOUT_MS, context.projectDir);
}

/**
 * Adds, updates or removes plugin packages of a bot project through the person's npm (their
 * registry or mirror). Before installing, each candidate's `_manifest.json` is read from its
 * tarball and a version whose `host_application` range excludes this host is refused, naming
 * the range. After installing, `check` must find it loading; otherwise package.json, the
 * lockfile and node_modules are restored. Never throws for npm or plugin failures: the
 * result says what happened.
 */
export async function changePluginPackages(change: PluginPackageChange, options: ChangePluginPackagesOptions): Promise<PluginPackageChangeResult> {
  const context: Context = {
    projectDir: options.projectDir,
    configDir: options.configDir,
    registry: options.registry,
    progress: options.progress ?? (() => undefined),
    check: options.check ?? throwawayHostCheck(options.projectDir, options.configDir),
    hostVersion: options.hostVersion ?? HOST_VERSION,
  };
  if (!existsSync(join(context.projectDir, 'package.json'))) {
    return failed(`${context.projectDir} has no package.json: run this inside a bot project (moonglass init <name> creates one)`);
  }
  try {
    if (change.kind === 'add') return await addPackage(change.spec, context);
    if (change.kind === 'update') return await updatePackages(change.name, context);
    return await removePackage(change.name, context);
  } catch (error) {
    if (error instanceof RegistryLookupError) return failed(error.message);
    throw error;
  }
}

/** Installs with `install`, then checks; undoes both when either fails. */
async function installChecked(context: Context, args: readonly string[], names: readonly string[], before: ProjectSnapshot): Promise<{ installed: InstalledPluginPackage[]; problem?: string }> {
  const install = await npm(context, args);
  let problem: string | undefined;
  let installed: InstalledPluginPackage[] = [];
  if (install.code !== 0) {
    problem = `npm install failed: ${npmErrorLine(install.stderr)}`;
  } else {
    installed = names.map((name) => {
      const previousVersion = before.installed.get(`node_modules/${name}`);
      return {
        name,
        version: installedVersion(context.projectDir, name) ?? '?',
        folder: packageFolder(context.projectDir, name),
        ...(previousVersion === undefined ? {} : { previousVersion }),
      };
    });
    context.progress(`checking that ${names.join(', ')} load${names.length === 1 ? 's' : ''} on this host`);
    problem = await context.check(installed);
  }
  if (problem === undefined) return { installed };
  context.progress(problem);
  const left = await restoreSnapshot(before, context.registry, context.progress);
  return { installed: [], problem: left === undefined ? `${problem}; package.json, package-lock.json and node_modules are as they were` : `${problem}; restoring failed: ${left}` };
}

async function addPackage(specText: string, context: Context): Promise<PluginPackageChangeResult> {
  let spec;
  try {
    spec = parsePackageSpec(specText);
  } catch (error) {
    return failed((error as Error).message);
  }
  const registry = await effectiveRegistry(context.registry, context.projectDir);
  context.progress(`resolving ${spec.name}@${spec.range ?? 'latest'} in ${registry}`);
  const candidate = versionNpmPicks(await viewVersions(spec.name, spec.range, context.registry, context.projectDir), spec.range);
  context.progress(`reading the _manifest.json of ${spec.name}@${candidate.version}`);
  const verdict = await judgeCandidate(candidate, context.hostVersion, context.registry, context.projectDir);
  if (!verdict.fits) return failed(`refused ${spec.name}@${candidate.version}: ${verdict.reason}`);
  if (verdict.notice !== undefined) context.progress(verdict.notice);
  const before = takeSnapshot(context.projectDir);
  // A range the person gave is what package.json records; without one npm saves ^version.
  const target = `${spec.name}@${spec.range !== undefined && semver.validRange(spec.range) !== null ? spec.range : candidate.version}`;
  context.progress(`installing ${spec.name}@${candidate.version} (npm install ${target})`);
  const { installed, problem } = await installChecked(context, ['install', target], [spec.name], before);
  if (problem !== undefined) return failed(`${spec.name}@${candidate.version} was not added: ${problem}`);
  return {
    ok: true,
    summary: `added ${spec.name}@${installed[0]!.version} (plugin ${verdict.manifest.id}); it loads on this host — restart the bot, or use the web console's market, to run it`,
    installed,
    removed: [],
  };
}

/** The plugin packages `update` looks at: the one named (which package.json must list), or all. */
function updateTargets(name: string | undefined, context: Context): { names: string[]; problem?: string } {
  const dependencies = dependenciesOf(context.projectDir);
  if (name === undefined) return { names: pluginPackageFolders(context.projectDir).map((folder) => relative(join(context.projectDir, 'node_modules'), folder).split('\\').join('/')) };
  if (!(name in dependencies)) return { names: [], problem: `${name} is not in the dependencies of ${join(context.projectDir, 'package.json')}; add it with moonglass plugin add ${name}` };
  if (installedVersion(context.projectDir, name) === undefined) return { names: [], problem: `${name} is in package.json but not installed; run npm install first` };
  return { names: [name] };
}

/** The newest version after `installed` that `range` selects and that fits this host; checks at most a few tarballs. */
async function newestFitting(documents: readonly VersionDocument[], installed: string, context: Context): Promise<{ document: VersionDocument; pinned: boolean } | { refusal: string } | undefined> {
  const newer = documents.filter((document) => semver.gt(document.version, installed));
  if (newer.length === 0) return undefined;
  const first = await judgeCandidate(newer[0]!, context.hostVersion, context.registry, context.projectDir);
  if (first.fits) return { document: newer[0]!, pinned: false };
  for (const document of newer.slice(1, 5)) {
    const verdict = await judgeCandidate(document, context.hostVersion, context.registry, context.projectDir);
    if (verdict.fits) return { document, pinned: true };
  }
  return { refusal: first.reason };
}

async function updatePackages(name: string | undefined, context: Context): Promise<PluginPackageChangeResult> {
  const targets = updateTargets(name, context);
  if (targets.problem !== undefined) return failed(targets.problem);
  if (targets.names.length === 0) return { ok: true, summary: 'no plugin packages in package.json to update', installed: [], removed: [] };
  const dependencies = dependenciesOf(context.projectDir);
  const follow: string[] = [];
  const pins: string[] = [];
  const notes: string[] = [];
  const refusals: string[] = [];
  for (const target of targets.names) {
    const range = dependencies[target]!;
    const current = installedVersion(context.projectDir, target)!;
    if (semver.validRange(range) === null) {
      notes.push(`${target} comes from ${range}, not a registry range: not updated`);
      continue;
    }
    context.progress(`resolving ${target}@${range} (installed ${current})`);
    const documents = await viewVersions(target, range, context.registry, context.projectDir);
    const picked = versionNpmPicks(documents, range);
    const choice = await newestFitting(semver.gt(picked.version, current) ? [picked, ...documents.filter((document) => document !== picked)] : [], current, context);
    if (choice === undefined) notes.push(`${target} ${current} is the newest within ${range}`);
    else if ('refusal' in choice) refusals.push(`refused ${target}: ${choice.refusal}`);
    else if (choice.pinned) {
      pins.push(`${target}@${choice.document.version}`);
      notes.push(`${target} pinned to ${choice.document.version}, the newest within ${range} that fits this host (${picked.version} does not)`);
    } else follow.push(target);
  }
  const changing = [...follow, ...pins.map((pin) => pin.slice(0, pin.lastIndexOf('@')))];
  // With nothing to change, the notes and refusals are the result line itself, said once.
  if (changing.length === 0) return { ok: refusals.length === 0, summary: [...refusals, ...notes].join('; ') || 'nothing to update', installed: [], removed: [] };
  for (const line of [...notes, ...refusals]) context.progress(line);
  const before = takeSnapshot(context.projectDir);
  let installed: InstalledPluginPackage[] = [];
  let problem: string | undefined;
  if (follow.length > 0) {
    context.progress(`updating ${follow.join(', ')} (npm update)`);
    ({ installed, problem } = await installChecked(context, ['update', ...follow], follow, before));
  }
  if (problem === undefined && pins.length > 0) {
    context.progress(`installing ${pins.join(', ')} (npm install --save-exact)`);
    const pinned = await installChecked(context, ['install', '--save-exact', ...pins], changing, before);
    ({ installed, problem } = pinned);
  }
  if (problem !== undefined) return failed(`not updated: ${problem}`);
  const done = installed.map((entry) => `${entry.name} ${entry.previousVersion ?? '?'} → ${entry.version}`);
  return { ok: refusals.length === 0, summary: [`updated ${done.join(', ')}`, ...refusals].join('; '), installed, removed: [] };
}

async function removePackage(name: string, context: Context): Promise<PluginPackageChangeResult> {
  if (!(name in dependenciesOf(context.projectDir))) return failed(`${name} is not in the dependencies of ${join(context.projectDir, 'package.json')}`);
  const folder = packageFolder(context.projectDir, name);
  const version = installedVersion(context.projectDir, name);
  let id: string | undefined;
  if (version !== undefined) {
    const keywords = readJson(join(folder, 'package.json'))['keywords'];
    if (!Array.isArray(keywords) || !keywords.includes(PLUGIN_PACKAGE_KEYWORD)) return failed(`${name} is not a moonglass plugin package (no "${PLUGIN_PACKAGE_KEYWORD}" keyword); remove it with npm uninstall ${name}`);
    try {
      id = readPluginManifest(folder).id;
    } catch {
      id = undefined;
    }
  }
  const before = takeSnapshot(context.projectDir);
  context.progress(`removing ${name}${version === undefined ? '' : `@${version}`} (npm uninstall)`);
  const uninstall = await npm(context, ['uninstall', name]);
  if (uninstall.code !== 0) {
    const left = await restoreSnapshot(before, context.registry, context.progress);
    return failed(`npm uninstall failed: ${npmErrorLine(uninstall.stderr)}${left === undefined ? '' : `; restoring failed: ${left}`}`);
  }
  const settings = id === undefined ? undefined : pluginConfigFile(folder, id, context.configDir);
  const kept = settings !== undefined && existsSync(settings) ? `; its settings stay in ${relative(context.projectDir, settings) || settings}` : '';
  return {
    ok: true,
    summary: `removed ${name}${version === undefined ? '' : `@${version}`}${id === undefined ? '' : ` (plugin ${id})`}${kept}`,
    installed: [],
    removed: [{ name, folder, ...(version === undefined ? {} : { version }) }],
  };
}

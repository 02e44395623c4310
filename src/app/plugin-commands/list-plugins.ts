import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { pino } from 'pino';
import { createLogger } from '../../kernel/logger/create-logger.js';
import type { LogLevel } from '../../kernel/logger/logger.js';
import { pluginPackageFolders } from '../../plugin-system/discovery/plugin-packages.js';
import type { PluginStatus } from '../../plugin-system/discovery/plugin-status.js';
import { checkConfigFiles } from '../check-config-files.js';
import { inspectPlugins } from '../inspect-plugins.js';
import { pluginLabel } from '../plugin-label.js';

export interface ListPluginsOptions {
  configDir: string;
  logLevel: LogLevel;
  out: (line: string) => void;
}

/** What the listing says of one package or folder plugin. */
function describeState(status: PluginStatus | undefined): string {
  if (status === undefined) return 'not seen by the host';
  if (status.state === 'loaded') return status.compatibilityMode ? 'loaded (compatibility mode)' : 'loaded';
  return `${status.state} (${status.stage ?? ''}: ${(status.reason ?? '').split('\n').join(' ')})`;
}

function packageNameAndVersion(folder: string): { name: string; version: string } {
  try {
    const parsed = JSON.parse(readFileSync(resolve(folder, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return { name: typeof parsed.name === 'string' ? parsed.name : '?', version: typeof parsed.version === 'string' ? parsed.version : '?' };
  } catch {
    return { name: '?', version: '?' };
  }
}

function isInside(parent: string, file: string): boolean {
  const inside = relative(parent, file);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
}

/**
 * `moonglass plugin list`: the plugin packages the working folder's package.json depends on
 * (package name, installed version, manifest id, whether it loads) and then the folder
 * plugins in `./plugins`, marked `folder`. Whether each loads is found by loading them all on
 * a throwaway host (`inspectPlugins`), as `moonglass plugins` does. Exits 1 when one does not load.
 */
export async function listPlugins(options: ListPluginsOptions): Promise<number> {
  const { out } = options;
  const config = await checkConfigFiles(options.configDir, undefined);
  const [app, bot, models] = config.files;
  const invalid = config.files.filter((file) => file.state === 'invalid');
  if (invalid.length > 0) {
    for (const file of invalid) out(`PROBLEM  ${file.problem}`);
    out(`${invalid.length} problem(s): the plugins were not loaded, because the host would not start with these files`);
    return 1;
  }
  const logger = createLogger({ level: options.logLevel === 'info' ? 'warn' : options.logLevel, format: 'pretty', destination: pino.destination({ dest: 2, sync: true }) });
  const inspection = await inspectPlugins({ configDir: options.configDir, appConfig: app!.value, botConfig: bot!.value, modelsConfig: models!.value, logger });
  const byFolder = new Map(inspection.statuses.map((status) => [resolve(status.folder), status]));
  let failures = 0;
  const packages = pluginPackageFolders(resolve('.'));
  for (const folder of packages) {
    const status = byFolder.get(resolve(folder));
    const { name, version } = packageNameAndVersion(folder);
    if (status?.state !== 'loaded') failures += 1;
    out(`package  ${name} ${version}  id ${status === undefined ? '?' : pluginLabel(status)}  ${describeState(status)}`);
  }
  const pluginsFolder = resolve('plugins');
  const folders = inspection.statuses.filter((status) => !status.builtIn && isInside(pluginsFolder, resolve(status.folder)));
  for (const status of folders) {
    if (status.state !== 'loaded') failures += 1;
    out(`folder   ${relative(process.cwd(), status.folder)}  id ${pluginLabel(status)}${status.version === undefined ? '' : ` ${status.version}`}  ${describeState(status)}`);
  }
  if (packages.length === 0 && folders.length === 0) out('no plugin packages in package.json and no folder plugins in plugins/');
  return failures === 0 ? 0 : 1;
}

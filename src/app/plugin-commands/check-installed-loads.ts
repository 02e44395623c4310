import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pino } from 'pino';
import { createLogger } from '../../kernel/logger/create-logger.js';
import { checkConfigFiles } from '../check-config-files.js';
import { inspectPlugins } from '../inspect-plugins.js';
import { pluginLabel } from '../plugin-label.js';

/** A package as it is now installed in the project's node_modules. */
export interface InstalledPluginPackage {
  name: string;
  version: string;
  /** Absolute: `<project>/node_modules/<name>`. */
  folder: string;
  /** The version installed before an update; absent after an add. */
  previousVersion?: string;
}

/** Whether what was installed loads: `undefined` when it does, else one line saying why not. */
export type InstalledCheck = (installed: readonly InstalledPluginPackage[]) => Promise<string | undefined>;

/**
 * The check `plugin add` and `update` run after installing: every plugin loaded on a throwaway
 * host, as `moonglass check` does (see `inspectPlugins`), and each installed package must be
 * among the loaded ones. A config file the check wrote for a package that did not load is
 * removed again, so a refused package leaves nothing behind.
 */
export function throwawayHostCheck(projectDir: string, configDir: string): InstalledCheck {
  return async (installed) => {
    const config = await checkConfigFiles(configDir, undefined);
    const invalid = config.files.find((file) => file.state === 'invalid');
    if (invalid !== undefined) return `the plugins could not be loaded to check, because a config file is invalid: ${invalid.problem}`;
    const [app, bot, models] = config.files;
    const logger = createLogger({ level: 'error', format: 'pretty', destination: pino.destination({ dest: 2, sync: true }) });
    const inspection = await inspectPlugins({ configDir, appConfig: app!.value, botConfig: bot!.value, modelsConfig: models!.value, logger, projectDir });
    const problems: string[] = [];
    for (const entry of installed) {
      const status = inspection.statuses.find((candidate) => resolve(candidate.folder) === resolve(entry.folder));
      if (status?.state === 'loaded') continue;
      problems.push(
        status === undefined
          ? `${entry.name}@${entry.version} was not found as a plugin (no ${'_manifest.json'} or no moonglass-plugin keyword)`
          : `${entry.name}@${entry.version} (plugin ${pluginLabel(status)}) did not load: ${status.stage ?? status.state}: ${(status.reason ?? '').split('\n').join(' ')}`,
      );
      for (const change of inspection.configChanges) if (change.change === 'created' && status !== undefined && change.file.endsWith(`${status.id}.toml`)) rmSync(change.file, { force: true });
    }
    return problems.length === 0 ? undefined : problems.join('; ');
  };
}

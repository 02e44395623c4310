import type { LogLevel } from '../../kernel/logger/logger.js';
import { changePluginPackages, type PluginPackageChange } from './change-plugin-packages.js';
import { listPlugins } from './list-plugins.js';
import { newPlugin } from './new-plugin.js';
import { searchPlugins } from './search-plugins.js';

export interface PluginCommandOptions {
  configDir: string;
  logLevel: LogLevel;
  /** `--registry`, passed through to npm. */
  registry: string | undefined;
  usage: string;
}

/** `moonglass plugin <subcommand> ...`: dispatches to the subcommand's own file; resolves to the exit code. */
export async function runPluginCommand(words: readonly string[], options: PluginCommandOptions): Promise<number> {
  const [subcommand, ...rest] = words;
  const out = (line: string) => process.stdout.write(`${line}\n`);
  if (subcommand === 'list') {
    if (rest.length > 0) {
      process.stderr.write(`moonglass plugin list takes no words, got ${rest.join(' ')}\n\n${options.usage}`);
      return 2;
    }
    return listPlugins({ configDir: options.configDir, logLevel: options.logLevel, out });
  }
  if (subcommand === 'search') {
    if (rest.length === 0) {
      process.stderr.write(`moonglass plugin search needs the words to search for\n\n${options.usage}`);
      return 2;
    }
    return searchPlugins({ words: rest, registry: options.registry, out, err: (line) => process.stderr.write(`${line}\n`) });
  }
  if (subcommand === 'new') {
    if (rest.length !== 1) {
      process.stderr.write(`moonglass plugin new takes one package name, got ${rest.length === 0 ? 'none' : rest.join(' ')}\n\n${options.usage}`);
      return 2;
    }
    return newPlugin(rest[0]!, out, (line) => process.stderr.write(`${line}\n`));
  }
  if (subcommand === 'add' || subcommand === 'update' || subcommand === 'remove') {
    const takesNone = subcommand === 'update';
    if (rest.length > 1 || (rest.length === 0 && !takesNone)) {
      const wanted = subcommand === 'add' ? 'one package name[@range]' : takesNone ? 'at most one package name' : 'one package name';
      process.stderr.write(`moonglass plugin ${subcommand} takes ${wanted}, got ${rest.length === 0 ? 'none' : rest.join(' ')}\n\n${options.usage}`);
      return 2;
    }
    const change: PluginPackageChange =
      subcommand === 'add' ? { kind: 'add', spec: rest[0]! } : subcommand === 'remove' ? { kind: 'remove', name: rest[0]! } : rest[0] === undefined ? { kind: 'update' } : { kind: 'update', name: rest[0] };
    const result = await changePluginPackages(change, {
      projectDir: process.cwd(),
      configDir: options.configDir,
      ...(options.registry === undefined ? {} : { registry: options.registry }),
      progress: (line) => out(`  ${line}`),
    });
    if (result.ok) out(result.summary);
    else process.stderr.write(`moonglass plugin ${subcommand}: ${result.summary}\n`);
    return result.ok ? 0 : 1;
  }
  process.stderr.write(`${subcommand === undefined ? 'moonglass plugin needs a subcommand' : `unknown subcommand: plugin ${subcommand}`}\n\n${options.usage}`);
  return 2;
}

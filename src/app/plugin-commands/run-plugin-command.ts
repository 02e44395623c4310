import type { LogLevel } from '../../kernel/logger/logger.js';
import { listPlugins } from './list-plugins.js';

export interface PluginCommandOptions {
  configDir: string;
  logLevel: LogLevel;
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
  process.stderr.write(`${subcommand === undefined ? 'moonglass plugin needs a subcommand' : `unknown subcommand: plugin ${subcommand}`}\n\n${options.usage}`);
  return 2;
}

import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';
import { MoonglassError } from '../kernel/errors/moonglass-error.js';
import { LOG_LEVELS, type LogLevel } from '../kernel/logger/logger.js';
import { createHost } from './create-host.js';

/** `npm start`: boot a host, report where everything is, run until SIGINT or SIGTERM. */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'config-dir': { type: 'string' },
      'data-dir': { type: 'string' },
      'log-level': { type: 'string' },
    },
    strict: true,
  });
  const logLevel = values['log-level'] ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    process.stderr.write(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"\n`);
    return 2;
  }
  const host = createHost({
    ...(values['config-dir'] === undefined ? {} : { configDir: values['config-dir'] }),
    ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
    logLevel: logLevel as LogLevel,
  });
  try {
    await host.start();
  } catch (error) {
    if (MoonglassError.isInstance(error)) {
      host.logger.fatal({ code: error.code }, error.message);
      return 1;
    }
    throw error;
  }
  host.logger.info(
    { version: host.info.version, config: host.info.configDir, data: host.info.dataDir },
    `moonglass ${host.info.version} is running (config: ${host.info.configDir}, data: ${host.info.dataDir}). Press Ctrl+C to stop.`,
  );
  for (const line of describePlugins(host.plugins.list())) host.logger.info(line);
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  clearInterval(keepAlive);
  host.logger.info({ signal }, 'stopping');
  await host.stop(signal);
  host.logger.info('stopped');
  return 0;
}

/** One readable line per plugin state: what loaded, what is off, what failed and why. */
function describePlugins(statuses: readonly PluginStatus[]): string[] {
  const name = (status: PluginStatus) => status.id ?? basename(status.folder);
  const lines: string[] = [];
  const loaded = statuses.filter((status) => status.state === 'loaded');
  lines.push(`plugins loaded (${loaded.length}): ${loaded.map(name).join(', ') || 'none'}`);
  const disabled = statuses.filter((status) => status.state === 'disabled');
  if (disabled.length > 0) lines.push(`plugins switched off in their config.toml: ${disabled.map(name).join(', ')}`);
  for (const status of statuses.filter((entry) => entry.state === 'failed' || entry.state === 'skipped')) {
    lines.push(`plugin ${name(status)} ${status.state} (${status.stage}): ${(status.reason ?? '').split('\n').join(' ')}`);
  }
  return lines;
}

process.exitCode = await main();

import { parseArgs } from 'node:util';
import { isAbsolute, relative, resolve } from 'node:path';
import { pino } from 'pino';
import { listAdapters } from '../adapters/find-adapter.js';
import { createLogger } from '../kernel/logger/create-logger.js';
import { LOG_LEVELS, type LogLevel } from '../kernel/logger/logger.js';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';
import type { AppConfig } from '../kernel/config/app-config.js';
import { checkConfigFiles } from './check-config-files.js';
import { replyTaskWarning, unknownKeyWarnings } from './config-warnings.js';
import type { ModelsConfig } from '../llm/models-config.js';
import { rulePluginWarnings } from '../chat/rules/rule-plugin-warnings.js';
import type { BotConfig } from '../chat/bot-config.js';
import { undeclaredReversibleNames } from './check-reversible-enabled.js';
import { formatLocation } from '../kernel/errors/error-location.js';
import { inspectPlugins } from './inspect-plugins.js';
import { pluginLabel } from './plugin-label.js';
import { HOST_VERSION } from './host-version.js';
import { describeHiddenTools } from './startup-report.js';
import { runBot } from './run-bot.js';
import { initProject, InitRefusal } from '../scaffold/init-project.js';
import { runPluginCommand } from './plugin-commands/run-plugin-command.js';

const USAGE = `moonglass: a host for LLM chat bots

Usage:
  moonglass [start] [options]   run the bot (the default command); with --watch, a folder
                                plugin reloads when its files change
  moonglass plugins [options]   list the plugins and what became of each
  moonglass check [options]     validate the config files and plugins without starting;
                                exits 1 and names each problem when something is wrong
  moonglass init <name>         create a bot project in the new folder <name>: package.json,
                                config/, plugins/ with an example plugin and its test,
                                tsconfig.json, vitest, .gitignore, README, Dockerfile, compose.yaml
  moonglass plugin list         the plugin packages package.json depends on (name, installed
                                version, manifest id, whether it loads) and the folder plugins
                                in plugins/; exits 1 when one does not load
  moonglass plugin search <words>
                                search npm (your configured registry, or --registry) for
                                moonglass-plugin packages; says whether each fits this host
  moonglass plugin add <name>[@range]
                                install a plugin package through npm: refused when its
                                host_application range excludes this host; loaded on a
                                throwaway host after installing, and undone if it fails
  moonglass plugin update [<name>]
                                update one plugin package (or all) within its range, checked
                                and undone on failure as add is
  moonglass plugin remove <name>
                                uninstall a plugin package (its config file stays)
  moonglass plugin new <name>   create the folder <name>: a publishable plugin package
                                (package.json, _manifest.json, plugin.js, a test, README)

Options:
  --config-dir <dir>   config files (default ./config)
  --data-dir <dir>     database and plugin data (default ./data)
  --adapter <name>     the chat platform adapter (start, check): ${listAdapters().join(', ')}
                       (default: bot.toml [platform] adapter, out of the box "console")
  --log-level <level>  ${LOG_LEVELS.join(', ')} (default info)
  --moonglass <spec>   init: the moonglass dependency written to package.json
                       (default ^${HOST_VERSION}; a file: path or git URL works too)
  --registry <url>     plugin search, add, update: the npm registry (default: npm's own setting)
  --watch              start: reload a folder plugin in plugins/ when its files change; a
                       save that does not load leaves the previous version running
  -h, --help           this text
`;

/** Parses the command line and runs the command; resolves to the process exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        'config-dir': { type: 'string' },
        'data-dir': { type: 'string' },
        adapter: { type: 'string' },
        'log-level': { type: 'string' },
        moonglass: { type: 'string' },
        registry: { type: 'string' },
        watch: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help === true || positionals[0] === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const command = positionals[0] ?? 'start';
  if (command === 'init') return init(positionals.slice(1), values.moonglass);
  if ((positionals.length > 1 && command !== 'plugin') || !['start', 'plugins', 'check', 'plugin'].includes(command)) {
    process.stderr.write(`unknown command: ${positionals.join(' ')}\n\n${USAGE}`);
    return 2;
  }
  const logLevel = values['log-level'] ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    process.stderr.write(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"\n`);
    return 2;
  }
  const configDir = resolve(values['config-dir'] ?? 'config');
  const dataDir = resolve(values['data-dir'] ?? 'data');
  if (command === 'plugin') return runPluginCommand(positionals.slice(1), { configDir, logLevel: logLevel as LogLevel, registry: values.registry, usage: USAGE });
  if (command === 'start') {
    return runBot({ configDir, dataDir, logLevel: logLevel as LogLevel, watch: values.watch === true, ...(values.adapter === undefined ? {} : { adapter: values.adapter }) });
  }
  return inspect(command as 'plugins' | 'check', { configDir, dataDir, adapter: values.adapter, logLevel: logLevel as LogLevel });
}

function init(names: string[], moonglassSpec: string | undefined): number {
  if (names.length !== 1) {
    process.stderr.write(`moonglass init takes one project name, got ${names.length === 0 ? 'none' : names.join(' ')}\n\n${USAGE}`);
    return 2;
  }
  try {
    const { folder, files } = initProject({ name: names[0]!, ...(moonglassSpec === undefined ? {} : { moonglassSpec }) });
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(`created  ${folder}`);
    for (const file of files) out(`         ${file}`);
    out(`next:    cd ${shownPath(folder)} && npm install && npm start`);
    return 0;
  } catch (error) {
    if (!(error instanceof InitRefusal)) throw error;
    process.stderr.write(`moonglass init: ${error.message}\n`);
    return 1;
  }
}

async function inspect(command: 'plugins' | 'check', options: { configDir: string; dataDir: string; adapter: string | undefined; logLevel: LogLevel }): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const problems: string[] = [];
  let warnings = 0;
  const warn = (line: string) => {
    warnings += 1;
    out(`warning  ${line}`);
  };
  const config = await checkConfigFiles(options.configDir, options.adapter);
  if (command === 'check') {
    for (const file of config.files) {
      if (file.state === 'ok') out(`ok       ${file.file}`);
      else if (file.state === 'absent') out(`absent   ${file.file} (start writes the defaults)`);
      else out(`PROBLEM  ${file.problem}`);
    }
    if (config.adapter.problem === undefined) out(`ok       adapter ${config.adapter.name}`);
    else out(`PROBLEM  ${config.adapter.problem}`);
    for (const warning of unknownKeyWarnings(config.files)) warn(warning);
    const modelsFile = config.files[2]!;
    const replies = modelsFile.state === 'invalid' ? undefined : replyTaskWarning(modelsFile.file, modelsFile.value as ModelsConfig);
    if (replies !== undefined) warn(replies);
  }
  for (const file of config.files) if (file.state === 'invalid') problems.push(file.problem!);
  if (config.adapter.problem !== undefined) problems.push(config.adapter.problem);
  const [app, bot, models, mcp] = config.files;
  if ([app, bot, models, mcp].some((file) => file!.state === 'invalid')) {
    out(`${problems.length} problem(s): the plugins were not inspected, because the host would not start with these files`);
    if (command === 'plugins') for (const problem of problems) out(`PROBLEM  ${problem}`);
    return 1;
  }
  // Plugin lines are the report; the host's own log lines go to stderr, warnings and up.
  const logger = createLogger({ level: options.logLevel === 'info' ? 'warn' : options.logLevel, format: 'pretty', destination: pino.destination({ dest: 2, sync: true }) });
  const inspection = await inspectPlugins({
    configDir: options.configDir,
    appConfig: app!.value,
    botConfig: bot!.value,
    modelsConfig: models!.value,
    logger,
  });
  for (const status of inspection.statuses) {
    out(describeStatus(status));
    const location = inspection.errorLocations.get(status.folder);
    if (location !== undefined) out(`         at ${formatLocation({ ...location, file: shownPath(location.file) })}`);
    if (status.state === 'failed' || status.state === 'skipped') problems.push(`plugin ${pluginLabel(status)}: ${status.reason ?? status.state}`);
  }
  const hidden = describeHiddenTools(inspection.hiddenTools);
  if (hidden !== undefined) out(`note     ${hidden}`);
  if (command === 'check') {
    const enabled = (app!.value as AppConfig).tools.reversible_enabled;
    for (const problem of undeclaredReversibleNames(app!.file, enabled, inspection.tools)) {
      out(`PROBLEM  ${problem}`);
      problems.push(problem);
    }
    const loaded = new Set(inspection.statuses.flatMap((status) => (status.state === 'loaded' && status.id !== undefined ? [status.id] : [])));
    for (const warning of rulePluginWarnings((bot!.value as BotConfig).rules, loaded)) warn(warning);
  }
  // Inspecting loads the plugins as a start would, which writes their missing config.toml.
  for (const { file, change } of inspection.configChanges) {
    out(change === 'created' ? `wrote    ${shownPath(file)} (the plugin's settings with their defaults, as start writes them)` : `updated  ${shownPath(file)} (settings the file lacked were added, as start does)`);
  }
  const warned = warnings === 0 ? '' : ` (${warnings} warning${warnings === 1 ? '' : 's'} above)`;
  if (command === 'check') out(problems.length === 0 ? `no problems found${warned}` : `${problems.length} problem(s) found${warned}`);
  return problems.length === 0 ? 0 : 1;
}

/** `loaded   example.dice 1.0.0 (plugins/dice) 1 component(s)`; a refused plugin gives its step and reason. */
function describeStatus(status: PluginStatus): string {
  const version = status.version === undefined ? '' : ` ${status.version}`;
  const where = status.builtIn ? 'built-in' : shownPath(status.folder);
  const state = status.state.padEnd(8);
  const detail =
    status.state === 'loaded'
      ? `${status.signatures.length} component(s)${status.compatibilityMode ? ', compatibility mode' : ''}`
      : `${status.stage ?? ''}: ${(status.reason ?? '').split('\n').join(' ')}`;
  return `${state} ${pluginLabel(status)}${version} (${where}) ${detail}`;
}

/** A path under the working folder relative to it (as a person typed it), others absolute. */
function shownPath(file: string): string {
  const inside = relative(process.cwd(), file);
  return inside.startsWith('..') || isAbsolute(inside) ? file : inside;
}

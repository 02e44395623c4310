import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { pino } from 'pino';
import { BOT_CONFIG_FILE_NAME } from '../chat/bot-config.js';
import { readTomlFile } from '../kernel/config/read-toml-file.js';
import { MoonglassError } from '../kernel/errors/moonglass-error.js';
import { createLogger } from '../kernel/logger/create-logger.js';
import type { Logger, LogLevel } from '../kernel/logger/logger.js';
import { prepareAdapter, type PreparedAdapter } from './connect-adapter.js';
import { startAdmin } from './start-admin.js';
import { adapterAccounts } from './wire-commands.js';
import { createHost, type Host } from './create-host.js';
import { startConsoleChat } from './console-chat.js';
import { describeHiddenTools, describeModel, describePlugins, toolsHiddenByTier } from './startup-report.js';
import { startPluginWatch } from './watch/start-plugin-watch.js';

export interface RunBotOptions {
  configDir?: string;
  dataDir?: string;
  /** The adapter to run; default `bot.toml [platform] adapter` (console out of the box). */
  adapter?: string;
  logLevel?: LogLevel;
  /** `--watch`: reload a folder plugin when its files change. */
  watch?: boolean;
}

/** How long a piped conversation may keep working after its input ended. */
const DRAIN_LIMIT_MS = 120_000;
/** How long a stop asked for during start-up may take before the process ends anyway. */
const STARTUP_STOP_LIMIT_MS = 10_000;
/**
 * After a stop during start-up, a plugin's `onLoad` may still be pending and hold the event
 * loop (a timer, a socket of its own); the process ends this long after `runBot` returned.
 */
const STARTUP_EXIT_GRACE_MS = 1_000;

/**
 * `moonglass start` / `npm start`: boots the host, loads plugins, starts the adapter, reports
 * where everything is, and runs until SIGINT or SIGTERM (or, for the console reading a pipe,
 * until the input ended and every reply is out). Returns the exit code.
 *
 * A SIGINT or SIGTERM during start-up (a plugin's `onLoad` still pending, the adapter still
 * starting) stops what has started, within `STARTUP_STOP_LIMIT_MS`, and ends the process
 * with 0; a second Ctrl+C ends it at once with 130.
 */
export async function runBot(options: RunBotOptions = {}): Promise<number> {
  // Listened for from the first moment: a stop asked for while starting still stops gracefully.
  const signals = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  // The clock's timers are unref'd: without this, a plugin's pending onLoad would let the
  // process end on its own in the middle of start-up.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    return await run(options, signals);
  } finally {
    clearInterval(keepAlive);
  }
}

async function run(options: RunBotOptions, signals: Promise<NodeJS.Signals>): Promise<number> {
  const logger = rootLogger(options);
  const host = createHost({
    ...(options.configDir === undefined ? {} : { configDir: options.configDir }),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    logger,
  });
  let resolveInputClosed!: () => void;
  const inputClosed = new Promise<'input-closed'>((resolve) => (resolveInputClosed = () => resolve('input-closed')));
  const adapterName = options.adapter ?? configuredAdapter(host.info.configDir);
  // The adapter process loads its code while the host starts; both take about as long.
  const preparation = prepareAdapter(host, { name: adapterName, onInputClosed: () => resolveInputClosed() });
  const startup = await untilSignal(Promise.allSettled([preparation, host.start()]), signals);
  if (startup.signal !== undefined) return stopDuringStartUp(startup.signal, { logger, host, preparation });
  const [preparing, starting] = startup.value;
  if (starting.status === 'rejected' || preparing.status === 'rejected') {
    if (preparing.status === 'fulfilled') await preparing.value.supervisor.stop();
    await host.stop('start failed');
    return fatal(logger, starting.status === 'rejected' ? starting.reason : (preparing as PromiseRejectedResult).reason);
  }
  const prepared = preparing.value;
  const { supervisor } = prepared;
  host.accountsSource = adapterAccounts(supervisor, host.chat.bot); // /status lists them
  // The report comes before the adapter starts, so the adapter's own lines follow it.
  logger.info(`moonglass ${host.info.version}: config in ${host.info.configDir}, data in ${host.info.dataDir}`);
  const replyModel = describeModel(host);
  if (host.chat.llm.offline || (host.chat.models.tasks['actor']?.models.length ?? 0) > 0) logger.info(replyModel);
  else logger.warn(replyModel);
  for (const line of describePlugins(host.plugins.list())) logger.info(line);
  const hiddenTools = describeHiddenTools(toolsHiddenByTier(host.tools));
  if (hiddenTools !== undefined) logger.info(hiddenTools);
  try {
    const connecting = await untilSignal(prepared.connect(), signals);
    if (connecting.signal !== undefined) return stopDuringStartUp(connecting.signal, { logger, host, preparation });
  } catch (error) {
    await supervisor.stop();
    await host.stop('the adapter did not start');
    return fatal(logger, error);
  }

  logger.info(`adapter: ${adapterName}${supervisor.status.detail === undefined ? '' : ` (${supervisor.status.detail})`}`);
  const adminStarting = startAdmin(host, supervisor);
  const adminStart = await untilSignal(adminStarting, signals);
  if (adminStart.signal !== undefined) return stopDuringStartUp(adminStart.signal, { logger, host, preparation, admin: adminStarting });
  const admin = adminStart.value;
  const pluginWatch = options.watch === true ? startPluginWatch(host, logger) : undefined;
  logger.info({ readyInMs: Math.round(performance.now()) }, `ready in ${Math.round(performance.now())} ms. Press Ctrl+C to stop.`);
  // The console's prompt comes after the start-up report, so it is the last line on screen.
  const stopConsoleChat = adapterName === 'console' ? startConsoleChat(host, supervisor) : undefined;

  const reason = await Promise.race([signals, inputClosed]);
  if (reason === 'input-closed') {
    logger.info('the input ended; finishing the replies in progress, then stopping');
    await Promise.race([whenIdle(host), signals, sleep(DRAIN_LIMIT_MS)]);
  }
  // A second Ctrl+C while stopping means "now".
  process.once('SIGINT', () => process.exit(130));
  logger.info({ reason }, 'stopping');
  stopConsoleChat?.();
  await pluginWatch?.stop();
  await admin?.stop();
  await host.stop(reason);
  await supervisor.stop();
  logger.info('stopped');
  return 0;
}

/** What `work` resolved to, or the signal that came first. */
async function untilSignal<T>(work: Promise<T>, signals: Promise<NodeJS.Signals>): Promise<{ signal: undefined; value: T } | { signal: NodeJS.Signals }> {
  return Promise.race([work.then((value) => ({ signal: undefined, value })), signals.then((signal) => ({ signal }))]);
}

interface StartingParts {
  logger: Logger;
  host: Host;
  preparation: Promise<PreparedAdapter>;
  admin?: Promise<{ stop(): Promise<void> } | undefined>;
}

/**
 * A signal came while starting: stops the host (which ends a pending `onLoad`), the adapter
 * process once it is there, and the console if it came up; gives up waiting after
 * `STARTUP_STOP_LIMIT_MS`. Exit code 0; a second Ctrl+C exits with 130 at once.
 */
async function stopDuringStartUp(reason: NodeJS.Signals, parts: StartingParts): Promise<number> {
  const { logger, host, preparation, admin } = parts;
  process.once('SIGINT', () => process.exit(130));
  logger.info({ reason }, 'stopping during start-up');
  const stopping = Promise.allSettled([
    admin?.then((started) => started?.stop()),
    host.stop(reason),
    preparation.then((prepared) => prepared.supervisor.stop()),
  ]);
  const inTime = await Promise.race([stopping.then(() => true), sleep(STARTUP_STOP_LIMIT_MS).then(() => false)]);
  if (inTime) logger.info('stopped');
  else logger.warn(`not everything stopped within ${STARTUP_STOP_LIMIT_MS / 1000} s; exiting anyway`);
  setTimeout(() => process.exit(0), STARTUP_EXIT_GRACE_MS).unref();
  return 0;
}

/**
 * The console adapter prints the conversation on stdout, so the host logs to stderr there
 * (`echo hi | npm start 2>/dev/null` shows just the chat). Other adapters log to stdout.
 */
function rootLogger(options: RunBotOptions): Logger {
  const level = options.logLevel ?? 'info';
  const toStderr = (options.adapter ?? configuredAdapter(options.configDir ?? 'config')) === 'console';
  if (!toStderr) return createLogger({ level });
  return createLogger({ level, format: process.stderr.isTTY ? 'pretty' : 'json', destination: pino.destination({ dest: 2, sync: true }) });
}

/** `bot.toml [platform] adapter` read early (the logger comes before the host); errors are the host's to report. */
function configuredAdapter(configDir: string): string {
  try {
    const adapter = (readTomlFile(join(configDir, BOT_CONFIG_FILE_NAME))?.['platform'] as { adapter?: unknown } | undefined)?.adapter;
    return typeof adapter === 'string' ? adapter : 'console';
  } catch {
    return 'console';
  }
}

function fatal(logger: Logger, error: unknown): number {
  if (MoonglassError.isInstance(error)) {
    logger.fatal({ code: error.code }, error.message);
    return 1;
  }
  throw error;
}

/** Resolves when no stream has unread messages and none is in the middle of a step, twice in a row. */
async function whenIdle(host: Host): Promise<void> {
  let quietChecks = 0;
  while (quietChecks < 2) {
    await sleep(100);
    const idle = !host.chat.loop.busy && host.chat.database.messages.streamsWithUnread().length === 0;
    quietChecks = idle ? quietChecks + 1 : 0;
  }
}

/** A wait that never keeps the process alive by itself (the drain limit must not delay the exit). */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

import { join } from 'node:path';
import type { AdapterSupervisor } from '../adapters/adapter-supervisor.js';
import type { AdminHostView } from '../admin/admin-host-view.js';
import { AdminServer } from '../admin/admin-server.js';
import { PhaseTracker } from '../admin/phase-tracker.js';
import { SandboxChannel } from '../admin/sandbox-channel.js';
import { TraceRecorder } from '../admin/trace-recorder.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Host } from './create-host.js';
import { createPluginMarket } from './plugin-market.js';
import { describeModel } from './startup-report.js';
import { personaFor } from '../chat/bot-accounts.js';
import { tokensTodayOf } from './wire-limits.js';
import { BOT_CONFIG_FILE_NAME } from '../chat/bot-config.js';
import { resolveTimeZone } from '../kernel/time/zoned-time.js';

/**
 * Starts the web console for a running host when `features.toml [admin] enabled`. A console
 * that cannot start (its port is taken) is logged and the bot runs on without it.
 */
export async function startAdmin(host: Host, supervisor: AdapterSupervisor | undefined): Promise<AdminServer | undefined> {
  const settings = host.config.admin;
  if (!settings.enabled) return undefined;
  // The bot project is the working folder of the host process: where npm start runs, beside package.json.
  const market = createPluginMarket(host, { projectDir: process.cwd() });
  const server = new AdminServer({ port: settings.port, view: { ...adminViewOf(host, supervisor), market } });
  try {
    await server.start();
  } catch (error) {
    host.logger.error(
      { port: settings.port, error: describeError(error) },
      `the web console could not start on 127.0.0.1:${settings.port} (${describeError(error)}); the bot runs without it. Set features.toml [admin] port, or enabled = false.`,
    );
    return undefined;
  }
  host.logger.info({ port: server.port }, `web console: ${server.url}`);
  return server;
}

/** What the console reads from a running host (and its adapter, when one is connected). */
export function adminViewOf(host: Host, supervisor: AdapterSupervisor | undefined): AdminHostView {
  const startedAt = host.clock.now();
  const now = () => host.clock.now();
  const sandbox = new SandboxChannel((envelope) => host.receive(envelope, 'moonglass:adapter:sandbox'), now);
  // Sandbox replies stay in the console; everything else still goes to the adapter.
  host.setOutboundSink(sandbox.wrap(host.outboundSink));
  const traces = new TraceRecorder(() => Date.now());
  host.bus.setTracer(traces);
  return {
    version: host.info.version,
    startedAt,
    configDir: host.info.configDir,
    dataDir: host.info.dataDir,
    clock: host.clock,
    logger: host.logger,
    plugins: host.plugins,
    bus: host.bus,
    database: host.chat.database,
    modelDescription: () => describeModel(host),
    timeZone: host.chat.bot.bot.timezone,
    adapterStatus: () => {
      if (supervisor === undefined) return undefined;
      const { name, state, connected, detail, selfId, restarts, accounts } = supervisor.status;
      return {
        name,
        state,
        connected,
        restarts,
        ...(detail === undefined ? {} : { detail }),
        ...(selfId === undefined ? {} : { selfId }),
        ...(accounts === undefined ? {} : { accounts: accounts.map((account) => ({ ...account })) }),
      };
    },
    // Every account goes by the bot's nickname until bot.toml [accounts."<self id>"] gives it its own.
    accountNickname: (selfId) => personaFor(host.chat.bot, selfId).nickname,
    streamState: (streamId) => host.chat.loop.driverOf(streamId)?.state.kind,
    tokensToday: () => tokensTodayOf(host),
    // The Rules page edits config/bot.toml [[rules]] and puts them in use without a restart.
    rules: {
      file: join(host.info.configDir, BOT_CONFIG_FILE_NAME),
      timeZone: resolveTimeZone(host.chat.bot.bot.timezone),
      list: () => host.chat.rules.list(),
      replace: (rules) => host.chat.rules.replace(rules),
    },
    phases: new PhaseTracker(host.bus, now),
    sandbox,
    traces,
  };
}

import { join } from 'node:path';
import type { InboundAck } from '../adapters/adapter-context.js';
import { AdapterSupervisor, type RestartPolicy } from '../adapters/adapter-supervisor.js';
import { resolveAdapter } from '../adapters/find-adapter.js';
import { accountGroupsOf, defaultAccounts } from '../chat/bot-accounts.js';
import { loadConfigFile } from '../kernel/config/load-config-file.js';
import type { Host } from './create-host.js';

export interface ConnectAdapterOptions {
  /** The adapter's name: a folder under `src/adapters/`. */
  name: string;
  /** Adapters live here (default `src/adapters/`; tests point elsewhere). */
  root?: string;
  onInputClosed?(): void;
  restart?: Partial<RestartPolicy>;
}

/** An adapter whose thread or process is already loading; `connect()` once the host has started. */
export interface PreparedAdapter {
  supervisor: AdapterSupervisor;
  /**
   * Reads (or writes the default) `config/adapters/<name>.toml`, starts the adapter with it
   * and the bot's facts, and makes it the host's outbound sink. Resolves once it is up.
   */
  connect(): Promise<void>;
}

/**
 * Finds the adapter and starts its thread or process right away, so that its code loads while
 * the host starts (a cold TypeScript child takes most of a second). Inbound envelopes go
 * through the host's ingress under the signature `<id>:adapter:<name>`.
 */
export async function prepareAdapter(host: Host, options: ConnectAdapterOptions): Promise<PreparedAdapter> {
  const adapter = await resolveAdapter(options.name, options.root);
  const signature = `${adapter.manifest.id}:adapter:${adapter.name}`;
  const supervisor = new AdapterSupervisor({
    adapter,
    logger: host.logger,
    clock: host.clock,
    stdin: adapter.name === 'console' ? 'inherit' : 'ignore',
    // The console adapter reads a terminal, which a worker thread cannot have (its stdin and
    // stdout are pipes through the host): it keeps a process of its own unless told otherwise.
    isolation: host.chat.bot.platform.isolation ?? (adapter.name === 'console' ? 'process' : 'thread'),
    ...(options.restart === undefined ? {} : { restart: options.restart }),
    ...(options.onInputClosed === undefined ? {} : { onInputClosed: options.onInputClosed }),
    receive: async (envelope): Promise<InboundAck> => {
      const outcome = await host.receive(envelope as never, signature);
      return outcome.status === 'invalid' ? { stored: false, status: 'invalid', reason: outcome.reason } : { stored: true, status: outcome.status };
    },
    receiveEvent: async (event): Promise<InboundAck> => {
      const outcome = await host.chat.ingress.receiveEvent(event, signature);
      return outcome.status === 'invalid' ? { stored: false, status: 'invalid', reason: outcome.reason } : { stored: true, status: 'delivered' };
    },
  });
  supervisor.prewarm();
  return {
    supervisor,
    async connect() {
      const config = loadConfigFile({
        configDir: join(host.info.configDir, 'adapters'),
        fileName: `${adapter.name}.toml`,
        schema: adapter.configSchema,
        header: adapter.configHeader,
        logger: host.logger,
      });
      const botConfig = host.chat.bot;
      const bot = { nickname: botConfig.bot.nickname, aliases: botConfig.bot.aliases, accounts: defaultAccounts(botConfig), accountGroups: accountGroupsOf(botConfig) };
      host.setOutboundSink(supervisor);
      await supervisor.start({ config, bot });
    },
  };
}

import type { Adapter, AdapterContext, AdapterFactory } from '../adapter-context.js';
import type { OneBotConfig } from './config.js';
import { ForwardClients, forwardEndpointsOf } from './forward-clients.js';
import { toWireParams } from './events/wire-params.js';
import { OneBotAdapter } from './onebot-adapter.js';
import { ReverseServer } from './reverse-server.js';
import type { OneBotTransport } from './transport.js';

/** The running OneBot adapter, with what tests and the status page want beyond `Adapter`. */
export interface RunningOneBotAdapter extends Adapter {
  call(action: string, params: Readonly<Record<string, unknown>>, account?: string | null): Promise<unknown>;
  /** The reverse server's bound port (useful with `port = 0`); undefined in forward mode. */
  readonly listeningPort: number | undefined;
}

/**
 * Starts the OneBot v11 adapter in the configured mode: a reverse-WebSocket server that
 * NapCat/Lagrange connect to, or forward-WebSocket clients that connect to them (one per
 * `[[forward.endpoints]]` entry, else the one `[forward] url`). Rejects when the reverse
 * server cannot listen (port taken, bad host).
 */
export async function createOneBotAdapter(context: AdapterContext<OneBotConfig>): Promise<RunningOneBotAdapter> {
  const { config, logger } = context;
  const adapter = new OneBotAdapter(context);
  let server: ReverseServer | undefined;
  let clients: ForwardClients | undefined;
  let transport: OneBotTransport;
  if (config.mode === 'reverse') {
    server = new ReverseServer({ ...config.reverse, accessToken: config.access_token, logger }, adapter);
    transport = server;
  } else {
    clients = new ForwardClients({ endpoints: forwardEndpointsOf(config), reconnectIntervalMs: config.forward.reconnect_interval_ms, logger }, adapter);
    transport = clients;
  }
  await adapter.start(transport);
  logger.info(clients !== undefined ? `OneBot forward mode: connecting to ${clients.shownUrls.join(', ')}` : `OneBot reverse mode: listening on ${server?.url}`);
  const stop = () => adapter.stop();
  if (context.signal.aborted) await stop();
  else context.signal.addEventListener('abort', () => void stop(), { once: true });
  return {
    deliver: (delivery) => adapter.deliver(delivery),
    call: (action, params, account) => adapter.call(action, toWireParams(params), account),
    confirm: (request) => adapter.confirm(request),
    stop,
    get listeningPort() {
      return server?.port;
    },
  };
}

const factory: AdapterFactory<OneBotConfig> = createOneBotAdapter;

export default factory;

import type { Logger } from '../../kernel/logger/logger.js';
import type { OneBotConfig } from './config.js';
import { ForwardClient } from './forward-client.js';
import type { OneBotTransport, TransportHandlers } from './transport.js';

/** One QQ client's forward-WebSocket server and the token it expects (empty: none). */
export interface ForwardEndpoint {
  url: string;
  accessToken: string;
}

/**
 * The servers forward mode connects to: `[[forward.endpoints]]` when it lists any (each
 * without its own `access_token` takes the top-level one), else the one `[forward] url`.
 */
export function forwardEndpointsOf(config: OneBotConfig): ForwardEndpoint[] {
  const listed = config.forward.endpoints ?? [];
  if (listed.length === 0) return [{ url: config.forward.url, accessToken: config.access_token }];
  return listed.map((endpoint) => ({ url: endpoint.url, accessToken: endpoint.access_token ?? config.access_token }));
}

export interface ForwardClientsOptions {
  endpoints: readonly ForwardEndpoint[];
  reconnectIntervalMs: number;
  logger: Logger;
  /** How long a closing socket may take to finish its close handshake on stop. Default 1000 ms. */
  closeGraceMs?: number;
}

/**
 * Forward mode with one or more QQ clients: a `ForwardClient` per endpoint, each connecting
 * and reconnecting on its own, all reporting to the same handlers. Each connection is one
 * account (the adapter learns which from its first event), so one client dropping leaves the
 * others' connections as they are.
 */
export class ForwardClients implements OneBotTransport {
  readonly #clients: readonly ForwardClient[];
  readonly #reconnectIntervalMs: number;

  constructor(options: ForwardClientsOptions, handlers: TransportHandlers) {
    if (options.endpoints.length === 0) throw new Error('ForwardClients needs at least one endpoint');
    this.#reconnectIntervalMs = options.reconnectIntervalMs;
    this.#clients = options.endpoints.map(
      (endpoint) =>
        new ForwardClient(
          {
            url: endpoint.url,
            accessToken: endpoint.accessToken,
            reconnectIntervalMs: options.reconnectIntervalMs,
            logger: options.logger,
            ...(options.closeGraceMs === undefined ? {} : { closeGraceMs: options.closeGraceMs }),
          },
          handlers,
        ),
    );
  }

  /** Every endpoint's URL as logs may show it (tokens in a query hidden), in config order. */
  get shownUrls(): string[] {
    return this.#clients.map((client) => client.shownUrl);
  }

  async start(): Promise<void> {
    await Promise.all(this.#clients.map((client) => client.start()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.#clients.map((client) => client.stop()));
  }

  /** Names the endpoints not connected at the moment. */
  get waitingDetail(): string {
    const [only] = this.#clients;
    if (this.#clients.length === 1 && only !== undefined) return only.waitingDetail;
    const waiting = this.#clients.filter((client) => !client.connected).map((client) => client.shownUrl);
    const connected = this.#clients.length - waiting.length;
    if (waiting.length === 0) return `connected to all ${this.#clients.length} endpoints`;
    return `connecting to ${waiting.join(', ')} (retrying every ${this.#reconnectIntervalMs} ms; ${connected} of ${this.#clients.length} endpoints connected)`;
  }
}

import type { AccountGroups } from '../chat/bot-accounts.js';
import type { InboundEnvelope } from '../chat/inbound-envelope.js';
import type { PlatformEvent } from '../chat/platform-events.js';
import type { DeliveryCheck, DeliveryCheckRequest, OutboundDelivery } from '../chat/outbound-sink.js';
import type { Logger } from '../kernel/logger/logger.js';

/** What the host said about one inbound message once it was handled. */
export type InboundAck =
  /** Stored (and delivered to its stream, or stopped by a handler, or a repeat of a stored id). */
  | { readonly stored: true; readonly status: 'delivered' | 'stopped' | 'duplicate' }
  /** Refused at the boundary: the envelope is malformed; `reason` names the field. */
  | { readonly stored: false; readonly status: 'invalid'; readonly reason: string }
  /** The host could not store it (a database fault); the platform message was not taken in. */
  | { readonly stored: false; readonly status: 'failed'; readonly reason: string };

/** The platform connection as the adapter sees it; shown in logs (and later the web console). */
export interface AdapterStatus {
  connected: boolean;
  /** The bot's own account on the platform, when known (OneBot: X-Self-ID). */
  selfId?: string;
  /** One line for a person: "listening on ws://127.0.0.1:8095", "connected to …". */
  detail?: string;
  /**
   * Every bot account the adapter has seen since it started (OneBot: one per connection's
   * `X-Self-ID`), connected or not, in the order they first connected. Absent: the adapter
   * has no notion of accounts (the console).
   */
  accounts?: readonly AccountStatus[];
}

/** One bot account's connection, as the adapter sees it. */
export interface AccountStatus {
  selfId: string;
  connected: boolean;
  /** "QQ 10001 connected from 127.0.0.1:50312", "connection closed (1006)". */
  detail?: string;
}

/** The bot facts an adapter needs to recognise its own messages and mentions. */
export interface AdapterBotInfo {
  nickname: string;
  aliases: readonly string[];
  /** The bot's default account per platform, from `bot.toml [accounts]` (its string entries). */
  accounts: Readonly<Record<string, string>>;
  /**
   * Per account id, the group lists its `bot.toml [accounts."<id>"] groups` sets: messages and
   * events of that account obey them instead of the adapter's own `[groups]`. An account not
   * listed (or no map at all) uses the adapter's.
   */
  accountGroups?: Readonly<Record<string, AccountGroups>>;
}

/**
 * What an adapter receives, inside its own process. The host process owns storage and the
 * chat; the adapter only translates between the platform and these calls.
 */
export interface AdapterContext<Config> {
  /** The adapter's name (its folder under `src/adapters/`). */
  readonly name: string;
  /** The validated adapter config (`config/adapters/<name>.toml`). */
  readonly config: Config;
  /** Lines go to the host's log, tagged `adapter: <name>`. */
  readonly logger: Logger;
  readonly bot: AdapterBotInfo;
  /** Aborted when the host asks the adapter to stop. */
  readonly signal: AbortSignal;
  /** Hands one received message to the host; resolves once the host has stored it. */
  receive(envelope: InboundEnvelope): Promise<InboundAck>;
  /**
   * Hands one notice or request to the host, which publishes it as `on_notice` / `on_request`
   * (and marks a recalled message). Resolves once the host's handlers have run.
   */
  receiveEvent(event: PlatformEvent): Promise<InboundAck>;
  /** Reports the platform connection state. */
  setStatus(status: AdapterStatus): void;
  /** No more input will come (the console's stdin ended); the host may finish and stop. */
  inputClosed(): void;
}

/** A running adapter, as its factory returns it. */
export interface Adapter {
  /** Sends one message out; resolves to the platform's id for it. Rejects with a reason on failure. */
  deliver(delivery: OutboundDelivery): Promise<{ messageId: string }>;
  /**
   * Calls a platform action by name (OneBot: `get_msg`, `get_forward_msg` …) and resolves to
   * its data. With `account`, only on that account's connection. Adapters without actions
   * leave it out; the host then says so to the caller.
   */
  call?(action: string, params: Readonly<Record<string, unknown>>, account?: string | null): Promise<unknown>;
  /**
   * Looks on the platform for a delivery left in doubt (sent, no answer), so the host
   * neither loses it nor sends it twice. Adapters that cannot tell leave it out.
   */
  confirm?(request: DeliveryCheckRequest): Promise<DeliveryCheck>;
  /** Closes connections and servers; called once, on shutdown. */
  stop(): Promise<void>;
}

/** An adapter module's default export. */
export type AdapterFactory<Config> = (ctx: AdapterContext<Config>) => Adapter | Promise<Adapter>;

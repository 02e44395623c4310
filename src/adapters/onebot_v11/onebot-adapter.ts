import type WebSocket from 'ws';
import type { AccountStatus, Adapter, AdapterContext, AdapterStatus } from '../adapter-context.js';
import type { DeliveryCheck, DeliveryCheckRequest, OutboundDelivery } from '../../chat/outbound-sink.js';
import { withDeliveryFailure } from '../../chat/delivery-failure.js';
import { rateLimitedLogOf } from '../../kernel/logger/rate-limited-log.js';
import { ActionClient } from './action-client.js';
import { decodeFrame, type DecodedFrame, type MessageEvent, type MetaEvent } from './codec.js';
import type { PlatformEvent } from '../../chat/platform-events.js';
import type { OneBotConfig } from './config.js';
import { isGroupAllowed, type GroupLists } from './group-filter.js';
import { OneBotActionError } from './onebot-action-error.js';
import { buildEnvelope, toOutboundSegments, toSegments, type OneBotSegment } from './segments.js';
import { SentMessageIds } from './sent-message-ids.js';
import type { OneBotTransport, TransportHandlers } from './transport.js';
import { messageIdOf, toWireId } from './wire-id.js';

/** One open socket to the OneBot implementation. */
interface Link {
  readonly socket: WebSocket;
  readonly actions: ActionClient;
  /** `X-Self-ID` (reverse), or the `self_id` of the first event (forward). */
  selfId: string | undefined;
  readonly detail: string;
}

/**
 * The OneBot v11 adapter over any transport: decodes frames, hands messages to the host,
 * sends deliveries and actions. Each envelope names the account (connection) it arrived on,
 * and a delivery naming an account goes out on that account's connection only. Without an
 * account, actions go to the one named in `bot.toml [accounts]`, else the newest connection.
 *
 * Messages go to the host in arrival order within a chat (a group, or a private chat's
 * user) and concurrently across chats, so a message the host is slow to take (a slow
 * `on_message_received` handler) holds back only its own chat.
 */
export class OneBotAdapter implements Adapter, TransportHandlers {
  readonly #context: AdapterContext<OneBotConfig>;
  readonly #links = new Map<WebSocket, Link>();
  readonly #sent = new SentMessageIds();
  /** Per chat with messages still going to the host: the last of them. Emptied as chats drain. */
  readonly #inboundChats = new Map<string, Promise<void>>();
  #transport: OneBotTransport | undefined;
  #stopping: Promise<void> | undefined;
  #lastSelfId: string | undefined;
  /** Every account seen since start, in first-connection order; a closed one stays, disconnected. */
  readonly #accounts = new Map<string, AccountStatus>();

  constructor(context: AdapterContext<OneBotConfig>) {
    this.#context = context;
    this.#lastSelfId = this.#configuredAccount();
  }

  /** Starts the transport; called once by the factory. */
  async start(transport: OneBotTransport): Promise<void> {
    this.#transport = transport;
    await transport.start();
    this.#reportStatus();
  }

  async deliver(delivery: OutboundDelivery): Promise<{ messageId: string }> {
    const message = toOutboundSegments(delivery);
    if (message.length === 0) throw withDeliveryFailure(new Error('cannot deliver an empty message (no content, media, reply or at)'), 'refused');
    const [action, params] =
      delivery.chatType === 'group'
        ? (['send_group_msg', { group_id: toWireId(requireId(delivery.groupId, 'groupId', 'a group message')), message }] as const)
        : (['send_private_msg', { user_id: toWireId(requireId(delivery.userId, 'userId', 'a private message')), message }] as const);
    const data = await this.call(action, params, delivery.account);
    const messageId = messageIdOf(data);
    if (messageId === undefined) throw new OneBotActionError({ action, failure: 'bad_answer', detail: 'data.message_id' });
    this.#sent.add(messageId);
    return { messageId };
  }

  /**
   * Looks for a delivery left in doubt in the chat's recent history (`get_friend_msg_history`
   * / `get_group_msg_history`: NapCat, Lagrange and go-cqhttp have them, the v11 standard
   * does not): a message from the bot's account with the same text, sent since the attempt
   * (a minute's slack for clocks apart), whose id is not one the host already stored.
   */
  async confirm(request: DeliveryCheckRequest): Promise<DeliveryCheck> {
    const { delivery, sinceMs, knownMessageIds } = request;
    const [action, params] =
      delivery.chatType === 'group'
        ? (['get_group_msg_history', { group_id: toWireId(requireId(delivery.groupId, 'groupId', 'a group message')), count: HISTORY_PAGE }] as const)
        : (['get_friend_msg_history', { user_id: toWireId(requireId(delivery.userId, 'userId', 'a private message')), count: HISTORY_PAGE }] as const);
    let data: unknown;
    try {
      data = await this.call(action, params, delivery.account);
    } catch (error) {
      if (error instanceof OneBotActionError && error.deliveryFailure === 'retry') throw error;
      return { status: 'unknown', reason: error instanceof Error ? error.message : String(error) };
    }
    const messages = (data as { messages?: unknown } | null)?.messages;
    if (!Array.isArray(messages)) return { status: 'unknown', reason: `${action} answered without a messages list` };
    const self = delivery.account ?? this.#activeLink()?.selfId ?? this.#configuredAccount();
    const wanted = fingerprintOf(toOutboundSegments(delivery));
    const known = new Set(knownMessageIds);
    for (const entry of messages as Record<string, unknown>[]) {
      const messageId = messageIdOf(entry);
      const sender = (entry['sender'] as { user_id?: unknown } | undefined)?.user_id ?? entry['user_id'];
      const time = typeof entry['time'] === 'number' ? entry['time'] * 1000 : Number.POSITIVE_INFINITY;
      if (messageId === undefined || known.has(messageId) || time < sinceMs - HISTORY_SLACK_MS) continue;
      if (self !== undefined && String(sender) !== self) continue;
      const body = entry['message'] ?? entry['raw_message'];
      if ((typeof body === 'string' || Array.isArray(body)) && fingerprintOf(toSegments(body as string | OneBotSegment[])) === wanted) {
        this.#sent.add(messageId);
        return { status: 'delivered', messageId };
      }
    }
    // A full page that does not reach back to the attempt (a busy group) proves nothing.
    const times = (messages as Record<string, unknown>[]).map((entry) => (typeof entry['time'] === 'number' ? entry['time'] * 1000 : 0));
    if (messages.length >= HISTORY_PAGE && Math.min(...times) > sinceMs - HISTORY_SLACK_MS) {
      return { status: 'unknown', reason: `the last ${HISTORY_PAGE} messages of the chat do not reach back to the attempt` };
    }
    return { status: 'missing' };
  }

  /**
   * Sends an action and resolves to its data. With `account`, on that account's connection,
   * rejecting with `no_connection` when it is not connected (never on another account);
   * without, on the default connection (see the class comment).
   */
  call(action: string, params: Readonly<Record<string, unknown>>, account?: string | null): Promise<unknown> {
    if (account !== undefined && account !== null && account !== '') {
      const named = [...this.#links.values()].findLast((candidate) => candidate.selfId === account);
      if (named === undefined) {
        const connectedAccounts = [...this.#links.values()].flatMap((candidate) => (candidate.selfId === undefined ? [] : [candidate.selfId]));
        return Promise.reject(new OneBotActionError({ action, failure: 'no_connection', account, connectedAccounts }));
      }
      return named.actions.call(action, params);
    }
    const link = this.#activeLink();
    if (link === undefined) {
      return Promise.reject(new OneBotActionError({ action, failure: 'no_connection', detail: this.#transport?.waitingDetail ?? 'not started' }));
    }
    return link.actions.call(action, params);
  }

  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  opened(socket: WebSocket, selfId: string | undefined, detail: string): void {
    const link: Link = {
      socket,
      actions: new ActionClient(socket, this.#context.config.action_timeout_ms),
      selfId,
      detail,
    };
    this.#links.set(socket, link);
    if (link.selfId !== undefined) this.#lastSelfId = link.selfId;
    this.#context.logger.info({ selfId: link.selfId }, `OneBot ${detail}`);
    this.#reportStatus();
  }

  closed(socket: WebSocket, code: number, reason: string): void {
    const link = this.#links.get(socket);
    if (link === undefined) return;
    this.#links.delete(socket);
    link.actions.rejectAll();
    if (link.selfId !== undefined && ![...this.#links.values()].some((other) => other.selfId === link.selfId)) {
      this.#accounts.set(link.selfId, { selfId: link.selfId, connected: false, detail: `connection closed (${code}${reason === '' ? '' : `: ${reason}`})` });
    }
    if (this.#stopping === undefined) this.#context.logger.warn({ selfId: link.selfId, code, reason }, 'OneBot connection closed');
    this.#reportStatus();
  }

  frame(socket: WebSocket, text: string): void {
    const link = this.#links.get(socket);
    if (link === undefined) return;
    const decoded = decodeFrame(text);
    switch (decoded.kind) {
      case 'message':
        this.#learnSelfId(link, decoded.event.self_id);
        this.#onMessage(link, decoded.event);
        return;
      case 'meta':
        if (decoded.event.self_id !== undefined) this.#learnSelfId(link, decoded.event.self_id);
        this.#onMeta(decoded.event);
        return;
      case 'notice':
      case 'request':
        this.#learnSelfId(link, decoded.selfId);
        this.#onPlatformEvent(link, decoded);
        return;
      case 'response':
        if (!link.actions.handleResponse(decoded.response)) {
          this.#context.logger.debug({ echo: decoded.response.echo }, 'OneBot response matches no pending action (late or foreign)');
        }
        return;
      case 'ignored':
        this.#context.logger.debug(`OneBot frame ignored: ${decoded.reason}`);
        return;
      case 'invalid':
        // One bad peer can send junk on every frame: counted per connection after its first lines.
        rateLimitedLogOf(this.#context.logger).warn(`frame skipped:${link.detail}`, { frame: text.slice(0, 200) }, `OneBot frame skipped: ${decoded.reason}`);
        return;
      default: {
        const unhandled: never = decoded;
        return unhandled;
      }
    }
  }

  #onMessage(link: Link, event: MessageEvent): void {
    const config = this.#context.config;
    const account = link.selfId ?? String(event.self_id);
    const groups = this.#groupsOf(account);
    if (event.message_type === 'group' && event.group_id !== undefined && !isGroupAllowed(groups.lists, String(event.group_id))) {
      this.#context.logger.debug({ groupId: String(event.group_id), account }, `OneBot group message dropped by ${groups.source} allow/deny`);
      return;
    }
    const selfIds = new Set([link.selfId, this.#configuredAccount()].filter((id): id is string => id !== undefined));
    // A segment the adapter does not know is kept as a placeholder; the log says which (once a minute per connection).
    const reportSegment = (problem: string) =>
      rateLimitedLogOf(this.#context.logger).warn(`segment:${link.detail}`, {}, `OneBot segment kept as a placeholder: ${problem}`);
    const envelope = { ...buildEnvelope(event, config.platform, { selfIds, isSentByBot: (id) => this.#sent.has(id) }, reportSegment), account };
    const chat = event.message_type === 'group' ? `group:${String(event.group_id ?? '')}` : `private:${String(event.user_id)}`;
    this.#afterInChat(chat, async () => {
      try {
        const ack = await this.#context.receive(envelope);
        if (!ack.stored) this.#context.logger.warn({ messageId: envelope.message_id }, `host refused a OneBot message: ${ack.reason}`);
      } catch (error) {
        this.#context.logger.error({ messageId: envelope.message_id, err: error }, 'handing a OneBot message to the host failed');
      }
    });
  }

  /**
   * Passes a notice or request to the host, after the earlier messages of its chat: a recall
   * then reaches the host after the message it recalls. Group events obey `[groups]` (the
   * account's own lists when bot.toml gives it some).
   */
  #onPlatformEvent(link: Link, decoded: Extract<DecodedFrame, { kind: 'notice' | 'request' }>): void {
    const body: { group_id?: string | null; user_id?: string } = decoded.kind === 'notice' ? decoded.notice : decoded.request;
    const groupId = typeof body.group_id === 'string' ? body.group_id : undefined;
    const account = link.selfId ?? String(decoded.selfId);
    const groups = this.#groupsOf(account);
    if (groupId !== undefined && !isGroupAllowed(groups.lists, groupId)) {
      this.#context.logger.debug({ groupId, kind: decoded.kind, account }, `OneBot group ${decoded.kind} dropped by ${groups.source} allow/deny`);
      return;
    }
    const origin = { platform: this.#context.config.platform, self_id: decoded.selfId, time: decoded.time };
    const event: PlatformEvent = decoded.kind === 'notice' ? { ...origin, kind: 'notice', notice: decoded.notice } : { ...origin, kind: 'request', request: decoded.request };
    const chat = groupId !== undefined ? `group:${groupId}` : `private:${body.user_id ?? ''}`;
    this.#afterInChat(chat, async () => {
      try {
        const ack = await this.#context.receiveEvent(event);
        if (!ack.stored) this.#context.logger.warn({ kind: decoded.kind }, `host refused a OneBot ${decoded.kind}: ${ack.reason}`);
      } catch (error) {
        this.#context.logger.error({ kind: decoded.kind, err: error }, `handing a OneBot ${decoded.kind} to the host failed`);
      }
    });
  }

  /** How many chats have messages still on their way to the host (for tests and status). */
  get pendingInboundChats(): number {
    return this.#inboundChats.size;
  }

  /** Runs `handOver` once the chat's earlier messages are with the host; `handOver` must not reject. */
  #afterInChat(chat: string, handOver: () => Promise<void>): void {
    const last = (this.#inboundChats.get(chat) ?? Promise.resolve()).then(handOver);
    this.#inboundChats.set(chat, last);
    void last.then(() => {
      if (this.#inboundChats.get(chat) === last) this.#inboundChats.delete(chat);
    });
  }

  #onMeta(event: MetaEvent): void {
    if (event.meta_event_type === 'heartbeat') {
      this.#context.logger.debug({ interval: event.interval }, 'OneBot heartbeat');
    } else if (event.meta_event_type === 'lifecycle') {
      this.#context.logger.info({ selfId: event.self_id, subType: event.sub_type }, `OneBot lifecycle: ${event.sub_type ?? 'unknown'}`);
    } else {
      this.#context.logger.debug({ metaEventType: event.meta_event_type }, 'OneBot meta event ignored');
    }
  }

  #learnSelfId(link: Link, selfId: string | number): void {
    if (link.selfId !== undefined) return;
    link.selfId = String(selfId);
    this.#lastSelfId = link.selfId;
    this.#reportStatus();
  }

  #configuredAccount(): string | undefined {
    const { accounts } = this.#context.bot;
    const platform = this.#context.config.platform;
    const account = Object.hasOwn(accounts, platform) ? accounts[platform] : undefined;
    return typeof account === 'string' && account !== '' ? account : undefined;
  }

  /** The group lists an account's messages obey: its `bot.toml [accounts."<id>"] groups`, else the config's `[groups]`. */
  #groupsOf(account: string): { lists: GroupLists; source: string } {
    const own = this.#context.bot.accountGroups;
    if (own !== undefined && Object.hasOwn(own, account)) return { lists: own[account]!, source: `bot.toml [accounts."${account}"] groups` };
    return { lists: this.#context.config.groups, source: '[groups]' };
  }

  /** The link actions go to: the configured account's, else the newest. */
  #activeLink(): Link | undefined {
    const links = [...this.#links.values()];
    const account = this.#configuredAccount();
    return links.find((link) => account !== undefined && link.selfId === account) ?? links.at(-1);
  }

  #reportStatus(): void {
    if (this.#stopping !== undefined) return;
    for (const link of this.#links.values()) {
      if (link.selfId !== undefined) this.#accounts.set(link.selfId, { selfId: link.selfId, connected: true, detail: link.detail });
    }
    const link = this.#activeLink();
    const status: AdapterStatus =
      link === undefined
        ? { connected: false, detail: this.#transport?.waitingDetail ?? 'not started' }
        : { connected: true, detail: link.detail };
    const selfId = link?.selfId ?? this.#lastSelfId;
    const accounts = [...this.#accounts.values()].map((account) => ({ ...account }));
    this.#context.setStatus({ ...status, ...(selfId === undefined ? {} : { selfId }), ...(accounts.length === 0 ? {} : { accounts }) });
  }

  async #stop(): Promise<void> {
    try {
      await this.#transport?.stop();
    } finally {
      for (const link of this.#links.values()) link.actions.rejectAll();
      this.#links.clear();
      const accounts = [...this.#accounts.values()].map((account) => ({ selfId: account.selfId, connected: false, detail: 'stopped' }));
      this.#context.setStatus({
        connected: false,
        detail: 'stopped',
        ...(this.#lastSelfId === undefined ? {} : { selfId: this.#lastSelfId }),
        ...(accounts.length === 0 ? {} : { accounts }),
      });
    }
  }
}

/** Messages of a chat's history read to find a delivery in doubt. */
const HISTORY_PAGE = 20;
/** How far before the attempt a found message may be dated (the two clocks may differ). */
const HISTORY_SLACK_MS = 60_000;

/** The text segments of a message, joined and trimmed (how two bodies are compared). */
function textOf(segments: readonly OneBotSegment[]): string {
  return segments
    .filter((segment) => segment.type === 'text')
    .map((segment) => String(segment.data['text'] ?? ''))
    .join('')
    .trim();
}

/**
 * What a message in the history is matched by: its text and the kinds of its media, in order.
 * Media files are not compared: the platform keeps its own name for a file the bot sent
 * (NapCat answers `file: "<id>.png"` and a download `url` for a `base64://` picture).
 */
function fingerprintOf(segments: readonly OneBotSegment[]): string {
  const media = segments.filter((segment) => segment.type === 'image' || segment.type === 'record' || segment.type === 'video').map((segment) => segment.type);
  return JSON.stringify([textOf(segments), media]);
}

function requireId(id: string | null, field: string, what: string): string {
  if (id === null || id === '') throw withDeliveryFailure(new Error(`cannot deliver ${what} without ${field}`), 'refused');
  return id;
}

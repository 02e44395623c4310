import { once } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/**
 * A loopback stand-in for a OneBot v11 implementation (NapCat, Lagrange). It connects the way
 * NapCat does (reverse WebSocket with `X-Self-ID`, `X-Client-Role: Universal` and a Bearer
 * token, retrying after drops) or listens for the adapter (forward WebSocket), pushes
 * realistic event frames, and answers actions by `echo`, recording each request.
 */

/** One segment `{type, data}`, as NapCat sends it. */
export interface PeerSegment {
  type: string;
  data: Record<string, unknown>;
}

/** How the peer answers an action. */
export type PeerAnswer =
  | { kind: 'ok'; data: unknown }
  | { kind: 'failed'; retcode: number; message: string; wording?: string }
  /** Never answers (for timeout tests). */
  | { kind: 'silent' }
  /** Takes the request (a send is sent and in the history) and drops the connection before answering. */
  | { kind: 'take_then_drop' }
  /** Drops the connection with the request unread: it never arrived. Not recorded. */
  | { kind: 'drop_unread' };

/** An action request the adapter sent. */
export interface PeerActionRequest {
  action: string;
  params: Record<string, unknown>;
  echo: unknown;
}

/** A refused handshake, as the client saw it. */
export interface PeerRefusal {
  status: number;
  body: string;
}

export interface ReverseConnectOptions {
  /** The adapter's reverse endpoint, `ws://127.0.0.1:<port>/onebot/v11/ws`. */
  url: string;
  /** Sent as `X-Self-ID`; defaults to the peer's self id. `null` leaves the header out. */
  selfId?: string | null;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** `X-Client-Role`; default `Universal`. */
  role?: string;
  /** Delay before reconnecting after a drop or a refusal; default 50 ms. */
  reconnectIntervalMs?: number;
}

export interface ForwardListenOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** When set, a handshake without `Authorization: Bearer <token>` is refused with 401. */
  token?: string;
}

export interface PushMessageOptions {
  /** A string is one text segment. */
  message: string | PeerSegment[];
  /** `string` sends the body in CQ-code form, as implementations configured for it do. */
  format?: 'array' | 'string';
  userId?: number;
  nickname?: string;
  /** Default: the next id of the peer's counter. */
  messageId?: number;
  time?: number;
}

export interface PushGroupMessageOptions extends PushMessageOptions {
  groupId?: number;
  card?: string;
  role?: 'owner' | 'admin' | 'member';
}

export interface PeerOptions {
  /** The bot account the peer plays; default `10000`. */
  selfId?: string;
  /** Send a lifecycle `connect` meta event on each new connection, as NapCat does; default true. */
  lifecycleOnConnect?: boolean;
  /** How long the `waitFor…` helpers wait before rejecting; default 5000 ms. */
  waitTimeoutMs?: number;
  /**
   * Answer `get_friend_msg_history` / `get_group_msg_history` (NapCat's extensions) from
   * what the bot sent; default true. False: those actions are unknown (1404), as on a
   * bare v11 implementation.
   */
  history?: boolean;
}

interface Waiter {
  check(): boolean;
  resolve(): void;
  reject(error: Error): void;
}

function escapeCqText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('[', '&#91;').replaceAll(']', '&#93;');
}

function escapeCqValue(text: string): string {
  return escapeCqText(text).replaceAll(',', '&#44;');
}

/** The CQ-code form of segments, as `raw_message` carries it. */
export function toCqString(segments: readonly PeerSegment[]): string {
  return segments
    .map((segment) => {
      if (segment.type === 'text') return escapeCqText(String(segment.data['text'] ?? ''));
      const params = Object.entries(segment.data).map(([key, value]) => `,${key}=${escapeCqValue(String(value))}`);
      return `[CQ:${segment.type}${params.join('')}]`;
    })
    .join('');
}

export class OneBotPeer {
  readonly selfId: string;
  /** Every action request received, in order. */
  readonly actions: PeerActionRequest[] = [];
  /** Every refused handshake (reverse: seen by the client; forward: refused by the peer). */
  readonly refusals: PeerRefusal[] = [];
  /** Handshake headers of each connection the forward server accepted. */
  readonly handshakes: IncomingHttpHeaders[] = [];
  connectionCount = 0;
  disconnectCount = 0;

  readonly #lifecycleOnConnect: boolean;
  readonly #history: boolean;
  /** What the bot sent and the peer took (answered ok), for the history actions. */
  readonly #sentByBot: { message_id: number; time: number; user_id?: unknown; group_id?: unknown; message: unknown }[] = [];
  readonly #waitTimeoutMs: number;
  readonly #answers = new Map<string, PeerAnswer>();
  readonly #waiters = new Set<Waiter>();
  readonly #actionListeners = new Set<(request: PeerActionRequest) => void>();
  #socket: WebSocket | undefined;
  #reverse: Required<Omit<ReverseConnectOptions, 'token' | 'selfId'>> & { token?: string; selfId: string | null } = {
    url: '',
    selfId: null,
    role: 'Universal',
    reconnectIntervalMs: 50,
  };
  #reconnecting = false;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #reverseSocket: WebSocket | undefined;
  #server: WebSocketServer | undefined;
  #nextMessageId = 1000;

  constructor(options: PeerOptions = {}) {
    this.selfId = options.selfId ?? '10000';
    this.#lifecycleOnConnect = options.lifecycleOnConnect ?? true;
    this.#history = options.history ?? true;
    this.#waitTimeoutMs = options.waitTimeoutMs ?? 5000;
  }

  /** True while a connection to the adapter is open. */
  get connected(): boolean {
    return this.#socket?.readyState === WebSocket.OPEN;
  }

  /** Calls `listener` with every action request as it arrives (before it is answered); returns the unsubscribe. */
  onAction(listener: (request: PeerActionRequest) => void): () => void {
    this.#actionListeners.add(listener);
    return () => this.#actionListeners.delete(listener);
  }

  /** Changes how the peer answers `action` from now on. */
  answer(action: string, answer: PeerAnswer): void {
    this.#answers.set(action, answer);
  }

  /** Reverse mode: connects to the adapter like NapCat, and keeps reconnecting until `close()`. */
  connectReverse(options: ReverseConnectOptions): void {
    this.#reverse = {
      url: options.url,
      selfId: options.selfId === undefined ? this.selfId : options.selfId,
      role: options.role ?? 'Universal',
      reconnectIntervalMs: options.reconnectIntervalMs ?? 50,
      ...(options.token === undefined ? {} : { token: options.token }),
    };
    this.#reconnecting = true;
    this.#openReverse();
  }

  /** Forward mode: listens on 127.0.0.1 for the adapter; resolves to the bound port and URL. */
  async listenForward(options: ForwardListenOptions = {}): Promise<{ port: number; url: string }> {
    const token = options.token;
    const server = new WebSocketServer({
      host: '127.0.0.1',
      port: options.port ?? 0,
      verifyClient: (info, callback) => {
        if (token === undefined || info.req.headers.authorization === `Bearer ${token}`) {
          callback(true);
          return;
        }
        this.refusals.push({ status: 401, body: 'Unauthorized' });
        this.#changed();
        callback(false, 401, 'Unauthorized');
      },
    });
    this.#server = server;
    server.on('connection', (socket, request) => {
      this.handshakes.push(request.headers);
      this.#attach(socket);
    });
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    return { port, url: `ws://127.0.0.1:${port}` };
  }

  /** Pushes a private (friend) message event; returns the frame sent. */
  pushPrivateMessage(options: PushMessageOptions): Record<string, unknown> {
    const userId = options.userId ?? 20001;
    const nickname = options.nickname ?? 'Alice';
    return this.#pushMessage(options, {
      message_type: 'private',
      sub_type: 'friend',
      user_id: userId,
      target_id: Number(this.selfId),
      sender: { user_id: userId, nickname, card: '' },
    });
  }

  /** Pushes a group message event; returns the frame sent. */
  pushGroupMessage(options: PushGroupMessageOptions): Record<string, unknown> {
    const userId = options.userId ?? 20001;
    return this.#pushMessage(options, {
      message_type: 'group',
      sub_type: 'normal',
      user_id: userId,
      group_id: options.groupId ?? 30001,
      sender: { user_id: userId, nickname: options.nickname ?? 'Alice', card: options.card ?? '', role: options.role ?? 'member' },
    });
  }

  /** Pushes a meta event: a heartbeat, or a lifecycle `connect`. */
  pushMeta(kind: 'heartbeat' | 'lifecycle'): Record<string, unknown> {
    const base = { time: this.#now(), self_id: Number(this.selfId), post_type: 'meta_event' };
    const frame =
      kind === 'heartbeat'
        ? { ...base, meta_event_type: 'heartbeat', status: { online: true, good: true }, interval: 30000 }
        : { ...base, meta_event_type: 'lifecycle', sub_type: 'connect' };
    this.pushEvent(frame);
    return frame;
  }

  /** Pushes a notice event (event/notice.md): `body` holds `notice_type` and its fields; returns the frame sent. */
  pushNotice(body: Record<string, unknown>): Record<string, unknown> {
    const frame = { time: this.#now(), self_id: Number(this.selfId), post_type: 'notice', ...body };
    this.pushEvent(frame);
    return frame;
  }

  /** Pushes a request event (event/request.md): `body` holds `request_type`, `flag` and the rest; returns the frame sent. */
  pushRequest(body: Record<string, unknown>): Record<string, unknown> {
    const frame = { time: this.#now(), self_id: Number(this.selfId), post_type: 'request', ...body };
    this.pushEvent(frame);
    return frame;
  }

  /** Pushes any object as one JSON frame. */
  pushEvent(frame: unknown): void {
    this.pushRaw(JSON.stringify(frame));
  }

  /** Pushes text as is (for malformed frames). */
  pushRaw(text: string): void {
    const socket = this.#socket;
    if (socket === undefined || socket.readyState !== WebSocket.OPEN) throw new Error('OneBotPeer: not connected');
    socket.send(text);
  }

  /** Resolves once `count` connections have been opened in total. */
  waitForConnection(count = 1): Promise<void> {
    return this.#waitUntil(() => this.connectionCount >= count, `connection #${count}`);
  }

  /** Resolves once `count` connections have closed in total. */
  waitForDisconnect(count = 1): Promise<void> {
    return this.#waitUntil(() => this.disconnectCount >= count, `disconnect #${count}`);
  }

  /** Resolves to the `count`-th refused handshake. */
  async waitForRefusal(count = 1): Promise<PeerRefusal> {
    await this.#waitUntil(() => this.refusals.length >= count, `refusal #${count}`);
    return this.refusals[count - 1] as PeerRefusal;
  }

  /** Resolves to the `nth` request for `action` (already received or still to come). */
  async waitForAction(action: string, nth = 1): Promise<PeerActionRequest> {
    const matching = () => this.actions.filter((request) => request.action === action);
    await this.#waitUntil(() => matching().length >= nth, `action ${action} #${nth}`);
    return matching()[nth - 1] as PeerActionRequest;
  }

  /** Drops the current connection abruptly from the peer side (reverse mode then reconnects). */
  drop(): void {
    this.#socket?.terminate();
  }

  /** Stops reconnecting and closes the connection and the forward server. */
  async close(): Promise<void> {
    this.#reconnecting = false;
    clearTimeout(this.#reconnectTimer);
    const sockets = [this.#socket, this.#reverseSocket].filter((socket): socket is WebSocket => socket !== undefined);
    await Promise.all(
      sockets.map(async (socket) => {
        if (socket.readyState === WebSocket.CLOSED) return;
        // A socket still connecting reports its termination as an error; that is expected here.
        const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        socket.on('error', () => undefined);
        socket.terminate();
        await closed;
      }),
    );
    const server = this.#server;
    this.#server = undefined;
    if (server !== undefined) {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    for (const waiter of [...this.#waiters]) waiter.reject(new Error('OneBotPeer: closed while waiting'));
  }

  #openReverse(): void {
    const options = this.#reverse;
    const headers: Record<string, string> = { 'X-Client-Role': options.role };
    if (options.selfId !== null) headers['X-Self-ID'] = options.selfId;
    if (options.token !== undefined) headers['Authorization'] = `Bearer ${options.token}`;
    const socket = new WebSocket(options.url, { headers });
    this.#reverseSocket = socket;
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        this.refusals.push({ status: response.statusCode ?? 0, body });
        this.#changed();
        socket.terminate();
      });
    });
    socket.on('open', () => this.#attach(socket));
    socket.on('error', () => {
      // Connection failures are retried below; NapCat only logs them.
    });
    socket.on('close', () => {
      if (this.#reverseSocket === socket) this.#reverseSocket = undefined;
      if (!this.#reconnecting) return;
      this.#reconnectTimer = setTimeout(() => {
        if (this.#reconnecting) this.#openReverse();
      }, options.reconnectIntervalMs);
    });
  }

  #attach(socket: WebSocket): void {
    this.#socket = socket;
    this.connectionCount += 1;
    socket.on('message', (data) => this.#onRequest(socket, String(data)));
    socket.on('close', () => {
      if (this.#socket === socket) this.#socket = undefined;
      this.disconnectCount += 1;
      this.#changed();
    });
    if (this.#lifecycleOnConnect) this.pushMeta('lifecycle');
    this.#changed();
  }

  #onRequest(socket: WebSocket, text: string): void {
    let request: PeerActionRequest;
    try {
      const parsed = JSON.parse(text) as Partial<PeerActionRequest>;
      if (typeof parsed.action !== 'string') throw new Error('no action');
      request = { action: parsed.action, params: parsed.params ?? {}, echo: parsed.echo };
    } catch {
      socket.send(JSON.stringify({ status: 'failed', retcode: 1400, data: null, message: 'bad request', wording: 'bad request' }));
      return;
    }
    const override = this.#answers.get(request.action);
    if (override?.kind === 'drop_unread') {
      this.#answers.delete(request.action); // once
      socket.terminate();
      return;
    }
    this.actions.push(request);
    for (const listener of this.#actionListeners) listener(request);
    this.#changed();
    if (override?.kind === 'take_then_drop') {
      this.#answers.delete(request.action); // once
      this.#defaultAnswer(request);
      socket.terminate();
      return;
    }
    const answer = override ?? this.#defaultAnswer(request);
    if (answer.kind === 'silent' || answer.kind === 'take_then_drop' || answer.kind === 'drop_unread') return;
    const response =
      answer.kind === 'ok'
        ? { status: 'ok', retcode: 0, data: answer.data, message: '', wording: '', echo: request.echo }
        : { status: 'failed', retcode: answer.retcode, data: null, message: answer.message, wording: answer.wording ?? answer.message, echo: request.echo };
    socket.send(JSON.stringify(response));
  }

  #defaultAnswer(request: PeerActionRequest): PeerAnswer {
    switch (request.action) {
      case 'send_msg':
      case 'send_private_msg':
      case 'send_group_msg': {
        const messageId = this.#takeMessageId();
        const { user_id, group_id, message } = request.params;
        this.#sentByBot.push({ message_id: messageId, time: this.#now(), ...(group_id === undefined ? { user_id } : { group_id }), message });
        return { kind: 'ok', data: { message_id: messageId } };
      }
      case 'get_friend_msg_history':
      case 'get_group_msg_history': {
        if (!this.#history) return { kind: 'failed', retcode: 1404, message: 'API not found', wording: `unsupported action ${request.action}` };
        const key = request.action === 'get_group_msg_history' ? 'group_id' : 'user_id';
        const messages = this.#sentByBot
          .filter((sent) => sent[key] !== undefined && String(sent[key]) === String(request.params[key]))
          .slice(-Number(request.params['count'] ?? 20))
          .map((sent) => ({ ...sent, message_type: key === 'group_id' ? 'group' : 'private', sender: { user_id: Number(this.selfId), nickname: 'bot' } }));
        return { kind: 'ok', data: { messages } };
      }
      case 'get_msg':
        return {
          kind: 'ok',
          data: {
            time: this.#now(),
            message_type: 'private',
            message_id: request.params['message_id'],
            real_id: request.params['message_id'],
            sender: { user_id: 20001, nickname: 'Alice' },
            message: [{ type: 'text', data: { text: 'hello' } }],
          },
        };
      case 'get_forward_msg':
        return { kind: 'ok', data: { messages: [] } };
      default:
        return { kind: 'failed', retcode: 1404, message: 'API not found', wording: `unsupported action ${request.action}` };
    }
  }

  #pushMessage(options: PushMessageOptions, fields: Record<string, unknown>): Record<string, unknown> {
    const segments: PeerSegment[] = typeof options.message === 'string' ? [{ type: 'text', data: { text: options.message } }] : options.message;
    const rawMessage = toCqString(segments);
    const messageId = options.messageId ?? this.#takeMessageId();
    const frame = {
      self_id: Number(this.selfId),
      user_id: fields['user_id'],
      time: options.time ?? this.#now(),
      message_id: messageId,
      message_seq: messageId,
      real_id: messageId,
      ...fields,
      raw_message: rawMessage,
      font: 14,
      message: options.format === 'string' ? rawMessage : segments,
      message_format: options.format ?? 'array',
      post_type: 'message',
    };
    this.pushEvent(frame);
    return frame;
  }

  #takeMessageId(): number {
    this.#nextMessageId += 1;
    return this.#nextMessageId;
  }

  #now(): number {
    return Math.floor(Date.now() / 1000);
  }

  #changed(): void {
    for (const waiter of [...this.#waiters]) {
      if (waiter.check()) waiter.resolve();
    }
  }

  #waitUntil(check: () => boolean, what: string): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => waiter.reject(new Error(`OneBotPeer: timed out after ${this.#waitTimeoutMs} ms waiting for ${what}`)),
        this.#waitTimeoutMs,
      );
      const settle = () => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
      };
      const waiter: Waiter = {
        check,
        resolve: () => {
          settle();
          resolve();
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      this.#waiters.add(waiter);
    });
  }
}

import { createServer, type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import type { Logger } from '../../kernel/logger/logger.js';
import { checkHandshake } from './check-handshake.js';
import { frameText, type OneBotTransport, type TransportHandlers } from './transport.js';

export interface ReverseServerOptions {
  host: string;
  /** 0 picks a free port; read it back from `port` once started. */
  port: number;
  path: string;
  /** Empty: no authentication. */
  accessToken: string;
  logger: Logger;
  /** How long a closing socket may take to finish its close handshake on stop. Default 1000 ms. */
  closeGraceMs?: number;
}

/** The close code sent to a connection replaced by a newer one for the same account. */
export const REPLACED_CLOSE_CODE = 4000;

/**
 * The reverse-WebSocket server NapCat and Lagrange connect to. Refusals happen in the HTTP
 * upgrade (404 wrong path, 401 token, 400 missing `X-Self-ID` or a non-Universal role), so the
 * client sees the status. One connection per account: a newer one for the same `X-Self-ID`
 * replaces (closes) the older.
 */
export class ReverseServer implements OneBotTransport {
  readonly #options: ReverseServerOptions;
  readonly #handlers: TransportHandlers;
  readonly #http: Server;
  readonly #websockets = new WebSocketServer({ noServer: true });
  readonly #bySelfId = new Map<string, WebSocket>();
  #stopping: Promise<void> | undefined;

  constructor(options: ReverseServerOptions, handlers: TransportHandlers) {
    this.#options = options;
    this.#handlers = handlers;
    this.#http = createServer((request, response) => {
      response.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', Upgrade: 'websocket' });
      response.end('OneBot v11 reverse WebSocket endpoint: connect with a WebSocket client.\n');
    });
    this.#http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.#upgrade(request, socket, head));
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      this.#http.once('error', failed);
      this.#http.listen(this.#options.port, this.#options.host, () => {
        this.#http.off('error', failed);
        this.#http.on('error', (error) => this.#options.logger.error({ err: error }, 'OneBot reverse server error'));
        resolve();
      });
    });
  }

  /** The bound port, once listening. */
  get port(): number | undefined {
    const address = this.#http.address();
    return address !== null && typeof address === 'object' ? (address as AddressInfo).port : undefined;
  }

  get url(): string {
    return `ws://${this.#options.host}:${this.port ?? this.#options.port}${this.#options.path}`;
  }

  get waitingDetail(): string {
    return `listening on ${this.url}, waiting for the QQ client`;
  }

  stop(): Promise<void> {
    this.#stopping ??= this.#close();
    return this.#stopping;
  }

  async #close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    const grace = this.#options.closeGraceMs ?? 1000;
    for (const socket of this.#websockets.clients) {
      socket.close(1001, 'server stopping');
      setTimeout(() => socket.terminate(), grace).unref();
    }
    this.#websockets.close();
    await closed;
  }

  #upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', (error) => this.#options.logger.debug({ err: error }, 'OneBot handshake socket error'));
    const verdict = this.#stopping === undefined ? checkHandshake(request, this.#options) : ({ accepted: false, status: 400, reason: 'server stopping' } as const);
    const peer = `${request.socket.remoteAddress ?? '?'}:${request.socket.remotePort ?? '?'}`;
    if (!verdict.accepted) {
      this.#options.logger.warn({ status: verdict.status, peer }, `refused a OneBot connection: ${verdict.reason}`);
      refuse(socket, verdict.status, verdict.reason);
      return;
    }
    this.#websockets.handleUpgrade(request, socket, head, (websocket) => this.#accept(websocket, verdict.selfId, peer));
  }

  #accept(socket: WebSocket, selfId: string, peer: string): void {
    const older = this.#bySelfId.get(selfId);
    this.#bySelfId.set(selfId, socket);
    if (older !== undefined) {
      this.#options.logger.info({ selfId, peer }, 'a newer OneBot connection for this account replaces the older one');
      older.close(REPLACED_CLOSE_CODE, 'replaced by a newer connection');
    }
    socket.on('message', (data) => this.#handlers.frame(socket, frameText(data)));
    socket.on('error', (error) => this.#options.logger.warn({ err: error, selfId }, 'OneBot connection error'));
    socket.once('close', (code, reason) => {
      if (this.#bySelfId.get(selfId) === socket) this.#bySelfId.delete(selfId);
      this.#handlers.closed(socket, code, reason.toString('utf8'));
    });
    this.#handlers.opened(socket, selfId, `QQ ${selfId} connected from ${peer}`);
  }
}

/** Answers a refused upgrade with a plain HTTP status and closes the socket. */
function refuse(socket: Duplex, status: number, reason: string): void {
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `\r\n${body}`,
  );
  socket.once('finish', () => socket.destroy());
}

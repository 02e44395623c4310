import WebSocket from 'ws';
import { describeError } from '../../kernel/errors/describe-error.js';
import type { Logger } from '../../kernel/logger/logger.js';
import { frameText, type OneBotTransport, type TransportHandlers } from './transport.js';

export interface ForwardClientOptions {
  url: string;
  /** Empty: no authentication. */
  accessToken: string;
  reconnectIntervalMs: number;
  logger: Logger;
  /** How long a closing socket may take to finish its close handshake on stop. Default 1000 ms. */
  closeGraceMs?: number;
}

/**
 * Connects to the OneBot implementation's forward-WebSocket server and keeps reconnecting
 * every `reconnectIntervalMs` after a drop or a failed attempt, until stopped. An outage is
 * logged once at warn; the further failed attempts of the same outage only at debug.
 */
export class ForwardClient implements OneBotTransport {
  readonly #options: ForwardClientOptions;
  readonly #handlers: TransportHandlers;
  #socket: WebSocket | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #stopping: Promise<void> | undefined;
  /** Failed attempts since the last open connection; undefined while no outage is going on. */
  #failedAttempts: number | undefined;
  #open = false;

  constructor(options: ForwardClientOptions, handlers: TransportHandlers) {
    this.#options = options;
    this.#handlers = handlers;
  }

  /** Starts connecting; resolves at once (the first attempt may still fail and be retried). */
  start(): Promise<void> {
    this.#connect();
    return Promise.resolve();
  }

  /** The server's URL as logs may show it (a token in its query hidden). */
  get shownUrl(): string {
    return shownUrl(this.#options.url);
  }

  /** True while the connection is open (reported to the handlers and not yet closed). */
  get connected(): boolean {
    return this.#open;
  }

  get waitingDetail(): string {
    return `connecting to ${this.shownUrl} (retrying every ${this.#options.reconnectIntervalMs} ms)`;
  }

  stop(): Promise<void> {
    this.#stopping ??= this.#close();
    return this.#stopping;
  }

  async #close(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const socket = this.#socket;
    if (socket === undefined || socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    if (socket.readyState === WebSocket.CONNECTING) {
      socket.terminate();
    } else {
      socket.close(1000, 'adapter stopping');
      setTimeout(() => socket.terminate(), this.#options.closeGraceMs ?? 1000).unref();
    }
    await closed;
  }

  #connect(): void {
    if (this.#stopped) return;
    const headers: Record<string, string> = this.#options.accessToken === '' ? {} : { Authorization: `Bearer ${this.#options.accessToken}` };
    const socket = new WebSocket(this.#options.url, { headers });
    this.#socket = socket;
    let opened = false;
    let failure: string | undefined;
    socket.on('open', () => {
      opened = true;
      const attempts = this.#failedAttempts;
      this.#failedAttempts = undefined;
      this.#open = true;
      const detail = `connected to ${this.shownUrl}`;
      // The adapter logs every connection; only the end of an outage is worth a line here.
      if (attempts !== undefined) this.#options.logger.info({ failedAttempts: attempts }, `re${detail}`);
      this.#handlers.opened(socket, undefined, detail);
    });
    socket.on('message', (data) => this.#handlers.frame(socket, frameText(data)));
    socket.on('error', (error) => {
      failure = describeError(error);
    });
    socket.once('close', (code, reason) => {
      if (opened) {
        this.#open = false;
        this.#handlers.closed(socket, code, reason.toString('utf8'));
        if (!this.#stopped) this.#reportDrop(code, reason.toString('utf8'));
      } else if (!this.#stopped) {
        this.#reportFailedAttempt(failure ?? `closed with code ${code}`);
      }
      this.#scheduleReconnect();
    });
  }

  #reportDrop(code: number, reason: string): void {
    this.#failedAttempts = 0;
    this.#options.logger.warn(
      { code, reason },
      `OneBot connection to ${this.shownUrl} lost; reconnecting every ${this.#options.reconnectIntervalMs} ms`,
    );
  }

  #reportFailedAttempt(failure: string): void {
    if (this.#failedAttempts === undefined) {
      this.#failedAttempts = 1;
      this.#options.logger.warn(
        { reason: failure },
        `cannot connect to OneBot at ${this.shownUrl}; retrying every ${this.#options.reconnectIntervalMs} ms`,
      );
      return;
    }
    this.#failedAttempts += 1;
    this.#options.logger.debug({ reason: failure, attempt: this.#failedAttempts, url: this.shownUrl }, `OneBot connection attempt failed again`);
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => this.#connect(), this.#options.reconnectIntervalMs);
  }
}

/** A URL as logs show it: a token in its query (`?access_token=…`, as NapCat recipes do) is hidden. */
export function shownUrl(text: string): string {
  try {
    const url = new URL(text);
    const hidden = [...url.searchParams.keys()].filter((key) => /token|secret|key|auth/i.test(key));
    if (hidden.length === 0) return text;
    for (const key of hidden) url.searchParams.set(key, '(secret)');
    return url.toString();
  } catch {
    return text;
  }
}

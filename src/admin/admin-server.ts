import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describeError } from '../kernel/errors/describe-error.js';
import { handleApi } from './admin-api.js';
import type { AdminHostView } from './admin-host-view.js';
import { createAdminToken } from './admin-token.js';
import { guardRequest } from './request-guard.js';
import { observeTracedEvents } from './trace-observers.js';

export interface AdminServerOptions {
  view: AdminHostView;
  /** 0 picks a free port. */
  port: number;
  /** Default: a new random token. */
  token?: string;
}

const UI_FOLDER = new URL('./ui/', import.meta.url);
const STATIC_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The web console: an HTTP server on 127.0.0.1 that serves one page and a JSON API. Every
 * API call needs the token (printed at start); requests for another host name or from
 * another origin are refused. Nothing it answers contains a secret value.
 */
export class AdminServer {
  readonly token: string;
  readonly #options: AdminServerOptions;
  readonly #server: Server;
  #stopObserving: (() => void) | undefined;

  constructor(options: AdminServerOptions) {
    this.#options = options;
    this.token = options.token ?? createAdminToken();
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        options.view.logger.error({ error: describeError(error), url: request.url }, 'the web console failed to answer a request');
        if (!response.headersSent) send(response, 500, { error: 'the console failed to answer; see the host log' });
      });
    });
  }

  /** Listens on 127.0.0.1; rejects when the port is taken. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#options.port, '127.0.0.1', () => {
        this.#server.off('error', reject);
        this.#stopObserving ??= observeTracedEvents(this.#options.view.bus);
        resolve();
      });
    });
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** The address to open, token included (in the fragment, which browsers never send). */
  get url(): string {
    return `http://127.0.0.1:${this.port}/#token=${this.token}`;
  }

  async stop(): Promise<void> {
    this.#stopObserving?.();
    this.#stopObserving = undefined;
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const isApi = url.pathname.startsWith('/api/');
    const guard = guardRequest(request, this.port, this.token, isApi);
    if (!guard.ok) {
      send(response, guard.status, { error: guard.reason });
      return;
    }
    if (!isApi) {
      const asset = request.method === 'GET' ? STATIC_FILES[url.pathname] : undefined;
      if (asset === undefined) {
        send(response, 404, { error: `not found: ${url.pathname}` });
        return;
      }
      const text = readFileSync(fileURLToPath(new URL(asset.file, UI_FOLDER)));
      response.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store', ...SECURITY_HEADERS }).end(text);
      return;
    }
    let body: unknown;
    if (request.method === 'PUT' || request.method === 'POST') {
      const text = await readBody(request);
      if (text === undefined) {
        send(response, 413, { error: `the body is larger than ${MAX_BODY_BYTES} bytes` });
        return;
      }
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch (error) {
        send(response, 400, { error: `the body is not JSON: ${(error as Error).message}` });
        return;
      }
    }
    const answer = await handleApi(this.#options.view, request.method ?? 'GET', url.pathname.slice('/api'.length), body, url.searchParams);
    send(response, answer.status, answer.body);
  }
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS }).end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

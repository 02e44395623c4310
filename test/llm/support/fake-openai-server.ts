import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake server received. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** Answers one request; may leave `response` open (a hung server). */
export type FakeHandler = (request: ReceivedRequest, response: ServerResponse) => void;

/**
 * An OpenAI-compatible server on 127.0.0.1 (a real socket, port 0). Handlers are used in
 * order, the last one repeating; every request is recorded.
 */
export class FakeOpenAiServer {
  readonly requests: ReceivedRequest[] = [];
  #handlers: FakeHandler[] = [];
  #served = 0;
  readonly #waiters: Array<{ count: number; resolve: (request: ReceivedRequest) => void }> = [];
  readonly #server: Server;

  private constructor() {
    this.#server = createServer((incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const request: ReceivedRequest = {
          method: incoming.method ?? '',
          url: incoming.url ?? '',
          headers: incoming.headers,
          body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
        };
        this.requests.push(request);
        const handler = this.#handlers[Math.min(this.#served, this.#handlers.length - 1)];
        this.#served++;
        if (handler === undefined) response.writeHead(500).end('no handler');
        else handler(request, response);
        for (const waiter of [...this.#waiters]) {
          if (this.requests.length >= waiter.count) {
            this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
            waiter.resolve(request);
          }
        }
      });
    });
  }

  /** Listens on `port` (default: any free one). */
  static async start(port = 0): Promise<FakeOpenAiServer> {
    const server = new FakeOpenAiServer();
    await new Promise<void>((resolve) => server.#server.listen(port, '127.0.0.1', resolve));
    return server;
  }

  /** The base URL, e.g. `http://127.0.0.1:41234/v1`. */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
  }

  /** Sets the handlers for the next requests (in order; the last repeats). */
  reply(...handlers: FakeHandler[]): void {
    this.#handlers = handlers;
    this.#served = 0;
  }

  /** Resolves when the server has received `count` requests in all (after their bodies). */
  receivedRequests(count: number): Promise<ReceivedRequest> {
    const last = this.requests[count - 1];
    if (last !== undefined) return Promise.resolve(last);
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): FakeHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
}

/** A raw text answer. */
export function text(status: number, body: string, contentType = 'application/json'): FakeHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': contentType }).end(body);
  };
}

/** A chat completion with one choice. */
export function completion(message: Record<string, unknown>, finishReason = 'stop', usage: unknown = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 }): FakeHandler {
  return json(200, {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_767_225_600,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
    usage,
  });
}

/**
 * A streamed answer: `pieces` are written one by one as separate network writes, so a
 * piece may end in the middle of an event (or of a line) to exercise the SSE reader.
 */
export function eventStream(pieces: readonly string[]): FakeHandler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let index = 0;
    const writeNext = (): void => {
      const piece = pieces[index++];
      if (piece === undefined) {
        response.end();
        return;
      }
      response.write(piece, () => setImmediate(writeNext));
    };
    writeNext();
  };
}

/** `data: <json>\n\n` for one chunk. */
export function sseData(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** A handler that never answers (the connection stays open until the client gives up). */
export const hang: FakeHandler = () => {};

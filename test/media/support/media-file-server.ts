import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers for one path. */
export interface ServedFile {
  body: Buffer;
  contentType?: string;
  /** Answer with this status and no body instead. */
  status?: number;
  /** Redirect here instead (status `status`, default 302); a path or a whole URL. */
  location?: string;
  /** Send the body chunked, without Content-Length, in 16 KiB writes that respect backpressure. */
  chunked?: boolean;
  /** Never answer (the request hangs until the client gives up). */
  stall?: boolean;
}

/** A request the server received, and how its answer ended. */
export interface FileRequest {
  path: string;
  range: string | undefined;
  /** Resolves true when the whole answer was sent, false when the client closed the connection first. */
  finished: Promise<boolean>;
}

/**
 * A static file server on 127.0.0.1 that honours single `bytes=a-b` Range requests with 206
 * (416 past the end), or, with `honourRange: false`, ignores Range and answers 200 with the
 * whole file. Every request is recorded.
 */
export class MediaFileServer {
  readonly requests: FileRequest[] = [];
  readonly #files = new Map<string, ServedFile>();
  readonly #honourRange: boolean;
  readonly #server: Server;
  readonly #waiters: Array<{ count: number; resolve: () => void }> = [];

  private constructor(honourRange: boolean) {
    this.#honourRange = honourRange;
    this.#server = createServer((request, response) => this.#handle(request, response));
  }

  static async start(options: { honourRange?: boolean } = {}): Promise<MediaFileServer> {
    const server = new MediaFileServer(options.honourRange ?? true);
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    return server;
  }

  /** `path` answers with a redirect to `location` (302 unless `status` says otherwise). */
  redirect(path: string, location: string, status = 302): string {
    return this.serve(path, { body: Buffer.alloc(0), location, status });
  }

  serve(path: string, file: ServedFile): string {
    this.#files.set(path, file);
    return this.url(path);
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${path}`;
  }

  requestsFor(path: string): FileRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Resolves once `count` requests have arrived in all. */
  receivedRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const range = request.headers.range;
    const finished = new Promise<boolean>((resolve) => {
      response.on('finish', () => resolve(true));
      response.on('close', () => resolve(response.writableFinished));
    });
    response.on('error', () => undefined);
    this.requests.push({ path, range, finished });
    for (const waiter of [...this.#waiters]) {
      if (this.requests.length < waiter.count) continue;
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const file = this.#files.get(path);
    if (file === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (file.stall === true) return;
    if (file.location !== undefined) {
      response.writeHead(file.status ?? 302, { location: file.location }).end();
      return;
    }
    if (file.status !== undefined) {
      response.writeHead(file.status, { 'content-type': 'text/plain' }).end(`status ${file.status}`);
      return;
    }
    const contentType = file.contentType ?? 'application/octet-stream';
    const { body } = file;
    const match = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
    if (this.#honourRange && match !== null) {
      const start = Number(match[1]);
      if (start >= body.length) {
        response.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      const end = Math.min(match[2] === '' ? body.length - 1 : Number(match[2]), body.length - 1);
      response
        .writeHead(206, { 'content-type': contentType, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${body.length}` })
        .end(body.subarray(start, end + 1));
      return;
    }
    if (file.chunked !== true) {
      response.writeHead(200, { 'content-type': contentType, 'content-length': body.length }).end(body);
      return;
    }
    response.writeHead(200, { 'content-type': contentType });
    void writeChunked(response, body);
  }
}

async function writeChunked(response: ServerResponse, body: Buffer): Promise<void> {
  const closed = new Promise<void>((resolve) => response.once('close', resolve));
  for (let offset = 0; offset < body.length; offset += 16 * 1024) {
    if (response.destroyed) return;
    if (!response.write(body.subarray(offset, offset + 16 * 1024))) {
      await Promise.race([new Promise<void>((resolve) => response.once('drain', resolve)), closed]);
    }
  }
  if (!response.destroyed) response.end();
}

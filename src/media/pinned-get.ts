import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { MediaFailure } from './media-failure.js';

/** One GET as the media code makes it: no body, a few headers, always a signal. */
export interface MediaRequestInit {
  headers?: Record<string, string>;
  signal: AbortSignal;
}

/** The keep-alive pools of one address policy: a pooled socket was connected to a checked address. */
export interface PinnedAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

export function createPinnedAgents(): PinnedAgents {
  return { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
}

const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * GETs `url` once (no redirects followed) over node:http(s), connecting only to the addresses
 * `addressesOf(hostname)` hands back. That function resolves and checks the name while the
 * socket connects, so the connection goes to exactly the address that was checked: a DNS
 * answer that changes between a check and the request (rebinding) cannot move it. TLS still
 * verifies the certificate against the host name. A literal IP in the URL is not looked up
 * (the caller checks it). A gzip, deflate or br body is decoded as fetch would. Resolves a
 * web `Response`; rejects with the lookup's `MediaFailure`, a network error or the signal's
 * reason.
 */
export function pinnedGet(
  url: URL,
  init: MediaRequestInit,
  addressesOf: (hostname: string) => Promise<readonly string[]>,
  agents: PinnedAgents,
): Promise<Response> {
  const lookup: LookupFunction = (hostname, options, callback) => {
    addressesOf(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const entries = addresses.map((address) => ({ address, family: isIP(address) })).filter((entry) => wanted === 0 || entry.family === wanted);
        const [first] = entries;
        if (first === undefined) callback(Object.assign(new Error(`no IPv${wanted} address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        else if (options.all === true) callback(null, entries);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 0),
    );
  };
  const secure = url.protocol === 'https:';
  return new Promise<Response>((resolve, reject) => {
    const options = { method: 'GET', headers: init.headers ?? {}, signal: init.signal, agent: secure ? agents.https : agents.http, lookup };
    const onResponse = (message: IncomingMessage): void => {
      try {
        resolve(toResponse(message));
      } catch (error) {
        message.destroy();
        reject(new MediaFailure(`unusable HTTP response (status ${String(message.statusCode)}): ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
      }
    };
    const request = secure ? httpsRequest(url, options, onResponse) : httpRequest(url, options, onResponse);
    // Kept for the request's lifetime: a later error (after the response) must not go unhandled.
    request.on('error', (error) => reject(init.signal.aborted ? init.signal.reason : error));
    request.end();
  });
}

function toResponse(message: IncomingMessage): Response {
  const status = message.statusCode ?? 0;
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const init = { status, statusText: message.statusMessage ?? '', headers };
  if (NULL_BODY_STATUSES.has(status)) {
    message.resume();
    return new Response(null, init);
  }
  const decoder = decoderFor(headers.get('content-encoding'));
  let body: Readable = message;
  if (decoder !== undefined) {
    body = pipeline(message, decoder, () => undefined);
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  return new Response(Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>, init);
}

function decoderFor(encoding: string | null): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

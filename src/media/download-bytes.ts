import { describeFetchError } from './describe-fetch-error.js';
import { MediaFailure } from './media-failure.js';
import type { MediaFetcher } from './media-fetcher.js';
import { readBodyUpTo } from './read-body-up-to.js';

export interface DownloadOptions {
  /** Checks the URL and every redirect, then sends each hop. */
  fetcher: Pick<MediaFetcher, 'get'>;
  /** Larger bodies are refused: by `Content-Length` before reading, else once the limit is passed. */
  maxBytes: number;
  signal: AbortSignal;
}

/**
 * GETs `url` through the fetcher (so a private address or hop is refused) and returns its
 * body. Throws `MediaFailure` (refused, HTTP error, network, too large) or the signal's reason.
 */
export async function downloadBytes(url: string, options: DownloadOptions): Promise<Uint8Array> {
  const { maxBytes, signal } = options;
  let response: Response;
  try {
    response = await options.fetcher.get(url, { signal });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof MediaFailure) throw error;
    throw new MediaFailure(`download failed: ${describeFetchError(error)}`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new MediaFailure(`download failed: HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new MediaFailure(tooLarge(`${declared} bytes`, maxBytes));
  }
  try {
    const { bytes, complete } = await readBodyUpTo(response.body, maxBytes);
    if (!complete) throw new MediaFailure(tooLarge('more than that', maxBytes));
    return bytes;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof MediaFailure) throw error;
    throw new MediaFailure(`download failed while reading the body: ${describeFetchError(error)}`, { cause: error });
  }
}

function tooLarge(size: string, maxBytes: number): string {
  return `the image is too large: ${size}, over the image_max_bytes limit of ${maxBytes} bytes`;
}

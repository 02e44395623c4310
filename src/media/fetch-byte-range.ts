import { describeFetchError } from './describe-fetch-error.js';
import { MediaFailure } from './media-failure.js';
import type { MediaFetcher } from './media-fetcher.js';
import { readBodyUpTo } from './read-body-up-to.js';

/**
 * Reads `length` bytes of `url` from `start` with an HTTP Range request. Fewer bytes come
 * back at the end of the file; none for a range past the end (HTTP 416). A server that
 * answers 200 ignores Range: its body is not read, and this throws `MediaFailure`, as for
 * any other status or a network error. Redirects and the address rule are the fetcher's:
 * a refused URL or hop is a `MediaFailure` too. The signal's reason when it aborts.
 */
export async function fetchByteRange(fetcher: Pick<MediaFetcher, 'get'>, url: string, start: number, length: number, signal: AbortSignal): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetcher.get(url, { headers: { range: `bytes=${start}-${start + length - 1}` }, signal });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof MediaFailure) throw error;
    throw new MediaFailure(`reading the video failed: ${describeFetchError(error)}`, { cause: error });
  }
  if (response.status !== 206) {
    await response.body?.cancel().catch(() => undefined);
    if (response.status === 416) return new Uint8Array(0);
    if (response.status === 200) {
      throw new MediaFailure('the video server ignores Range requests (HTTP 200 instead of 206), so the duration cannot be read');
    }
    throw new MediaFailure(`reading the video failed: HTTP ${response.status} for bytes ${start}-${start + length - 1}`);
  }
  try {
    return (await readBodyUpTo(response.body, length)).bytes;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new MediaFailure(`reading the video failed: ${describeFetchError(error)}`, { cause: error });
  }
}

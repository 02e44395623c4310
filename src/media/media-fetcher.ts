import { allowedAddressesOf, checkMediaUrl, lookupAllAddresses, type MediaAddressPolicy, type MediaLookup } from './check-media-url.js';
import { nonPublicAddressReason } from './is-public-address.js';
import { MediaFailure } from './media-failure.js';
import { createPinnedAgents, type MediaRequestInit, pinnedGet } from './pinned-get.js';
import { shortenSource } from './shorten-source.js';

export type { MediaRequestInit } from './pinned-get.js';

/** The most redirects one media request follows. */
export const MAX_MEDIA_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface MediaFetcherOptions {
  /** `[media] allow_private_addresses`, read on every request (a config reload applies). */
  allowPrivateAddresses: () => boolean;
  /**
   * Sends each hop instead of the built-in pinned client (`HostOptions.mediaFetch`, tests).
   * Its addresses are checked just before each hop but it resolves the name again itself, so
   * a DNS answer that changes in between (rebinding) is not covered on this path.
   */
  fetch?: typeof fetch;
  /** Resolves host names for the check and the connection; default `lookupAllAddresses`. */
  lookup?: MediaLookup;
  /**
   * The address rule while private addresses are not allowed; default
   * `nonPublicAddressReason`. Tests use it to let one loopback server count as public.
   */
  refuseAddress?: (address: string) => string | undefined;
}

/**
 * How the media code reaches the network and the disk. Unless `allow_private_addresses` is
 * on, only http(s) URLs of public addresses are fetched (every address a name resolves to is
 * checked, see `nonPublicAddressReason`), each redirect is checked the same way before it is
 * followed, and `file://` or local paths are not read. A refusal is a `MediaFailure` with the
 * reason, so it ends as a logged media failure and never reaches the chat.
 */
export class MediaFetcher {
  readonly #allowPrivate: () => boolean;
  readonly #fetch: typeof fetch | undefined;
  readonly #strict: MediaAddressPolicy;
  readonly #open: MediaAddressPolicy;
  // One pool per rule, so a socket opened to a private address while they were allowed is never reused after a reload forbids them.
  readonly #agents = { strict: createPinnedAgents(), open: createPinnedAgents() };

  constructor(options: MediaFetcherOptions) {
    this.#allowPrivate = options.allowPrivateAddresses;
    this.#fetch = options.fetch;
    const lookup = options.lookup ?? lookupAllAddresses;
    this.#strict = { lookup, refuseAddress: options.refuseAddress ?? nonPublicAddressReason };
    this.#open = { lookup, refuseAddress: () => undefined };
  }

  /** `file://` URLs and local paths may be read: only with `allow_private_addresses` (a same-machine setup). */
  localFilesAllowed(): boolean {
    return this.#allowPrivate();
  }

  /** `url` parsed, when it may be fetched; throws `MediaFailure` saying why not. Fetches nothing. */
  check(url: string): Promise<URL> {
    return checkMediaUrl(url, this.#policy());
  }

  /**
   * GETs `url`, following up to `MAX_MEDIA_REDIRECTS` redirects, each Location checked like
   * the first URL before it is requested. Returns the last response whatever its status.
   * Throws `MediaFailure` for a refused URL or hop or too many redirects, else what the
   * request throws (a network error, the signal's reason).
   */
  async get(url: string, init: MediaRequestInit): Promise<Response> {
    const open = this.#allowPrivate();
    const policy = open ? this.#open : this.#strict;
    let current = await checkMediaUrl(url, policy);
    for (let hop = 1; ; hop++) {
      const response = await this.#send(current, init, policy, open);
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
      if (location === null) return response;
      await response.body?.cancel().catch(() => undefined);
      if (hop > MAX_MEDIA_REDIRECTS) throw new MediaFailure(`more than ${MAX_MEDIA_REDIRECTS} redirects from ${shortenSource(url)}`);
      let next: string;
      try {
        next = new URL(location, current).href;
      } catch (error) {
        throw new MediaFailure(`redirect ${hop} has an unusable Location: ${shortenSource(location)}`, { cause: error });
      }
      try {
        current = await checkMediaUrl(next, policy);
      } catch (error) {
        if (!(error instanceof MediaFailure)) throw error;
        throw new MediaFailure(`redirect ${hop} (to ${shortenSource(next)}): ${error.message}`, { cause: error });
      }
    }
  }

  #policy(): MediaAddressPolicy {
    return this.#allowPrivate() ? this.#open : this.#strict;
  }

  #send(url: URL, init: MediaRequestInit, policy: MediaAddressPolicy, open: boolean): Promise<Response> {
    if (this.#fetch !== undefined) return this.#fetch(url.href, { ...init, redirect: 'manual' });
    return pinnedGet(url, init, (hostname) => allowedAddressesOf(hostname, policy), open ? this.#agents.open : this.#agents.strict);
  }
}

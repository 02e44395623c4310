import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { describeError } from '../kernel/errors/describe-error.js';
import { MediaFailure } from './media-failure.js';
import { shortenSource } from './shorten-source.js';

/** Every address a host name resolves to (IPv4 and IPv6 text). */
export type MediaLookup = (hostname: string) => Promise<readonly string[]>;

/** The system resolver (`node:dns` lookup, so /etc/hosts counts), all addresses. */
export const lookupAllAddresses: MediaLookup = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Which addresses a media request may reach. */
export interface MediaAddressPolicy {
  /** Why this IP address may not be reached, or `undefined` when it may. */
  refuseAddress(address: string): string | undefined;
  lookup: MediaLookup;
}

/**
 * The addresses of `hostname`, every one allowed by the policy. A literal IP (the URL parser
 * has already turned `2130706433`, `0x7f.1` and `[::ffff:127.0.0.1]` into canonical text) is
 * judged as it is; a name is resolved and refused when any of its addresses is refused, so a
 * resolver that rotates answers cannot slip one private address past the check. Throws
 * `MediaFailure` with the reason.
 */
export async function allowedAddressesOf(hostname: string, policy: MediaAddressPolicy): Promise<readonly string[]> {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  let addresses: readonly string[];
  if (isIP(bare) !== 0) {
    addresses = [bare];
  } else {
    try {
      addresses = await policy.lookup(bare);
    } catch (error) {
      throw new MediaFailure(`cannot resolve ${bare}: ${describeError(error)}`, { cause: error });
    }
    if (addresses.length === 0) throw new MediaFailure(`cannot resolve ${bare}: no addresses`);
  }
  for (const address of addresses) {
    const reason = policy.refuseAddress(address);
    if (reason === undefined) continue;
    const shown = address === bare ? address : `${bare} resolves to ${address}`;
    throw new MediaFailure(`refused to fetch from a private place: ${shown}, ${reason} (set allow_private_addresses = true in features.toml [media] for a LAN setup)`);
  }
  return addresses;
}

/**
 * `url` parsed and checked for fetching: http(s) only, and a host whose addresses the policy
 * allows (`allowedAddressesOf`). Throws `MediaFailure` saying why it is refused.
 */
export async function checkMediaUrl(url: string, policy: MediaAddressPolicy): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new MediaFailure(`not a usable URL: ${shortenSource(url)}`, { cause: error });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new MediaFailure(`refused to fetch a ${parsed.protocol} URL: only http(s):// URLs are fetched`);
  }
  await allowedAddressesOf(parsed.hostname, policy);
  return parsed;
}

import type { Database } from '../storage/database.js';
import { type StreamAddress, streamIdFor } from './stream-id.js';

/** Resolved ids kept in memory; past this many the cache starts again (each is one lookup to redo). */
const MAX_CACHED = 50_000;

/**
 * Finds the stream an address belongs to, for an address with an account. Normally that is
 * the account's own stream (`streamIdFor` with the account). A stream stored before streams
 * had accounts (its id has none) keeps answering: it belongs to the account it already names
 * (the one its replies went out on), or, when it names none, to the first account that
 * speaks in it (`claim`); every other account there gets a stream of its own.
 */
export class StreamIds {
  readonly #database: Database;
  readonly #resolved = new Map<string, string>();

  constructor(database: Database) {
    this.#database = database;
  }

  /** The stream an inbound message belongs to; an unowned pre-account stream becomes the account's. */
  forInbound(address: StreamAddress): string {
    return this.#resolve(address, true);
  }

  /** The stream an event (a recall, a notice) concerns; claims nothing. */
  lookup(address: StreamAddress): string {
    return this.#resolve(address, false);
  }

  #resolve(address: StreamAddress, claim: boolean): string {
    const own = streamIdFor(address);
    const account = address.account;
    if (account === undefined || account === null || account === '') return own;
    const cached = this.#resolved.get(own);
    if (cached !== undefined) return cached;
    const streams = this.#database.streams;
    if (streams.get(own) !== undefined) return this.#remember(own, own);
    const legacy = streamIdFor({ ...address, account: null });
    const stored = streams.get(legacy);
    if (stored === undefined) return own;
    if (stored.account === account) return this.#remember(own, legacy);
    if ((stored.account === null || stored.account === undefined) && claim && streams.claim(legacy, account)) return this.#remember(own, legacy);
    // Not claimed yet and only looked up (an event before any message): the old stream, unclaimed.
    if (stored.account === null || stored.account === undefined) return legacy;
    return own;
  }

  #remember(own: string, resolved: string): string {
    if (this.#resolved.size >= MAX_CACHED) this.#resolved.clear();
    this.#resolved.set(own, resolved);
    return resolved;
  }
}

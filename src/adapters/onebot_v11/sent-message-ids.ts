/** How many sent message ids are remembered by default. */
export const DEFAULT_SENT_MESSAGE_ID_LIMIT = 1000;

/**
 * The ids of the last messages the adapter sent, oldest dropped first. A reply to one of them
 * is a reply to the bot, so it counts as a mention.
 */
export class SentMessageIds {
  readonly #ids = new Set<string>();
  readonly #limit: number;

  constructor(limit = DEFAULT_SENT_MESSAGE_ID_LIMIT) {
    this.#limit = Math.max(1, limit);
  }

  add(id: string): void {
    this.#ids.delete(id);
    this.#ids.add(id);
    while (this.#ids.size > this.#limit) {
      const oldest = this.#ids.values().next();
      if (oldest.done === true) break;
      this.#ids.delete(oldest.value);
    }
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  get size(): number {
    return this.#ids.size;
  }
}

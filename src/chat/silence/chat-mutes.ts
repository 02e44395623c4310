import type { Clock } from '../../kernel/time/clock.js';
import type { Logger } from '../../kernel/logger/logger.js';
import type { ChatMuteRecord, ChatMuteRepository } from '../../storage/chat-mute-repository.js';

export interface ChatMutesOptions {
  /** The repository as bound now (the host's storage). */
  repository: () => ChatMuteRepository;
  clock: Clock;
  logger: Logger;
}

/**
 * The chats owners muted (`/mute`), persisted in `chat_mutes` so a mute outlives a restart.
 * The active mutes are read once and kept in memory (the silence gate asks on every
 * message); an expired one is ignored, and deleted the next time it is looked at.
 */
export class ChatMutes {
  readonly #options: ChatMutesOptions;
  #active: Map<string, ChatMuteRecord> | undefined;

  constructor(options: ChatMutesOptions) {
    this.#options = options;
  }

  /** Mutes the stream until `untilMs` (epoch ms), replacing a mute it had; logs one info line. */
  mute(streamId: string, untilMs: number, by: string | null): ChatMuteRecord {
    const record: ChatMuteRecord = { streamId, untilMs, mutedBy: by, createdAt: this.#options.clock.now() };
    this.#options.repository().put(record);
    this.#loaded().set(streamId, record);
    this.#options.logger.info(
      { stream_id: streamId, until: new Date(untilMs).toISOString(), muted_by: by },
      `chat ${streamId} muted until ${new Date(untilMs).toISOString()}: its messages are stored, not answered (owners' commands still run)`,
    );
    return record;
  }

  /** Ends the stream's mute; false when it was not muted (or its mute had ended). */
  unmute(streamId: string): boolean {
    const wasActive = this.activeMute(streamId) !== undefined;
    this.#options.repository().delete(streamId);
    this.#loaded().delete(streamId);
    if (wasActive) this.#options.logger.info({ stream_id: streamId }, `chat ${streamId} unmuted`);
    return wasActive;
  }

  /** The stream's mute when it lasts past `atMs` (default now); undefined: not muted. */
  activeMute(streamId: string, atMs: number = this.#options.clock.now()): ChatMuteRecord | undefined {
    const active = this.#loaded();
    const record = active.get(streamId);
    if (record === undefined) return undefined;
    if (record.untilMs > atMs) return record;
    // Asked about a time past its end: ended now, or only for that moment (a later time)?
    if (record.untilMs <= this.#options.clock.now()) this.#forgetEnded(record);
    return undefined;
  }

  /** The mutes that last past now. */
  list(): ChatMuteRecord[] {
    const now = this.#options.clock.now();
    return [...this.#loaded().values()].filter((record) => record.untilMs > now);
  }

  #forgetEnded(record: ChatMuteRecord): void {
    this.#active?.delete(record.streamId);
    try {
      this.#options.repository().deleteExpired(this.#options.clock.now());
    } catch {
      // The row stays; it is ignored anyway and deleted next time.
    }
    this.#options.logger.info({ stream_id: record.streamId, until: new Date(record.untilMs).toISOString() }, `the mute of chat ${record.streamId} ended`);
  }

  #loaded(): Map<string, ChatMuteRecord> {
    if (this.#active === undefined) {
      this.#active = new Map(this.#options.repository().listActive(this.#options.clock.now()).map((record) => [record.streamId, record]));
    }
    return this.#active;
  }
}

import type { ChatStream } from 'moonglass';
import { PendingResumes } from './session/pending-resumes.js';

/** What NDFC keeps per stream across transient components (state lives on the plugin). */
export class NdfcState {
  /**
   * When the bot last sent in each stream (epoch ms), for the typing delay. Keyed by the live
   * stream object, so an entry goes when the host drops an idle stream from memory.
   */
  readonly lastSendAt = new WeakMap<ChatStream, number>();
  /** Resumes delivered to each stream's conversation (`chat_core.resume`) and not taken yet. */
  readonly resumes = new PendingResumes();
}

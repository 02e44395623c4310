import type { WaitResumeEvent } from 'moonglass';

/** Resumes kept per stream before the oldest is dropped (a stream whose chatter is not NDFC never takes them). */
export const MAX_PENDING_RESUMES_PER_STREAM = 16;

/**
 * The resumes `chat_core.resume` delivered to each stream's conversation that no session has
 * taken yet. The host's stream loop steps a waiting run with the event itself, but a stream
 * with no run (after a Stop, a restart or an idle eviction) starts a fresh one that never
 * sees it, and two resumes before a step reach the run as one; so NDFC keeps each event
 * until a session of the stream takes it, and takes every event once, however many ways it
 * arrives.
 */
export class PendingResumes {
  readonly #byStream = new Map<string, WaitResumeEvent[]>();
  /** Events a session has taken (the loop may still deliver one of them later). */
  readonly #taken = new WeakSet<WaitResumeEvent>();

  /** Keeps `event` for the stream; returns the event dropped to make room, if any. */
  add(streamId: string, event: WaitResumeEvent): WaitResumeEvent | undefined {
    let queue = this.#byStream.get(streamId);
    if (queue === undefined) {
      queue = [];
      this.#byStream.set(streamId, queue);
    }
    queue.push(event);
    return queue.length > MAX_PENDING_RESUMES_PER_STREAM ? queue.shift() : undefined;
  }

  /**
   * What a session of the stream resumes with: `given` (the loop's event), unless a session
   * took it already; else the oldest kept event. The event returned counts as taken.
   */
  take(streamId: string, given?: WaitResumeEvent): WaitResumeEvent | undefined {
    const queue = this.#byStream.get(streamId);
    let event = given !== undefined && !this.#taken.has(given) ? given : undefined;
    if (event !== undefined) {
      const index = queue?.indexOf(event) ?? -1;
      if (index >= 0) queue!.splice(index, 1);
    } else {
      do event = queue?.shift();
      while (event !== undefined && this.#taken.has(event)); // the same event delivered twice is taken once
    }
    if (queue !== undefined && queue.length === 0) this.#byStream.delete(streamId);
    if (event !== undefined) this.#taken.add(event);
    return event;
  }

  /** Whether the stream has an event no session has taken. */
  has(streamId: string): boolean {
    return this.#byStream.has(streamId);
  }
}

import type { StreamManager } from '../chat/stream-manager.js';
import type { ChatLoop } from '../chatter/chat-loop.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock, TimerHandle } from '../kernel/time/clock.js';

export interface IdleEvictionOptions {
  clock: Clock;
  loop: ChatLoop;
  streams: StreamManager;
  /** A conversation quiet this long leaves memory (`features.toml [chat] idle_evict_seconds`). */
  idleMs: number;
  logger: Logger;
}

/**
 * Sweeps idle conversations out of memory on the clock, every `min(idleMs / 2, 60 s)`:
 * first their drivers (a suspended run holds its whole prompt), then the streams nothing
 * refers to any more. Everything stays in the database, and a stream is rebuilt from it
 * on its next message. Without this, a bot keeps ~12 KB for every conversation it ever had.
 * Returns the stop function.
 */
export function startIdleEviction(options: IdleEvictionOptions): () => void {
  const { clock, loop, streams, idleMs, logger } = options;
  const everyMs = Math.max(1_000, Math.min(idleMs / 2, 60_000));
  let timer: TimerHandle | undefined;
  let stopped = false;
  const sweep = (): void => {
    timer = undefined;
    if (stopped) return;
    try {
      const drivers = loop.evictIdle(idleMs, (streamId) => streams.isQuiet(streamId));
      const evicted = streams.evictIdle(clock.now() - idleMs, (streamId) => loop.driverOf(streamId) === undefined);
      if (drivers.length > 0 || evicted > 0) logger.debug({ drivers: drivers.length, streams: evicted, idle_ms: idleMs }, 'idle conversations left memory');
    } catch (error) {
      logger.warn({ error: describeError(error) }, 'sweeping idle conversations out of memory failed; trying again later');
    }
    timer = clock.setTimeout(sweep, everyMs);
  };
  timer = clock.setTimeout(sweep, everyMs);
  return () => {
    stopped = true;
    if (timer !== undefined) clock.clearTimeout(timer);
  };
}

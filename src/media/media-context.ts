import type { AppConfig } from '../kernel/config/app-config.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import type { LlmService } from '../llm/llm-service.js';
import type { GuardedMediaCache } from './guarded-media-cache.js';
import type { MediaFetcher } from './media-fetcher.js';

/** What the image and video describers share; built by `MediaService`. */
export interface MediaContext {
  /** Read on every use (limits and switches); the deadlines are copied at construction instead. */
  config: AppConfig['media'];
  llm: LlmService;
  clock: Clock;
  logger: Logger;
  cache: GuardedMediaCache;
  /** Every download and Range read, under the `allow_private_addresses` rule. */
  fetcher: MediaFetcher;
}

/** Who asked for one description, and how to cancel waiting for it. */
export interface MediaRequest {
  /** Aborting it stops this caller's wait. A cancelled waiter cancels the shared description, so every waiter of it gets `null`. */
  signal?: AbortSignal | undefined;
  /** Who asked (a plugin id, `inbound` ...), for the log. */
  requester?: string | undefined;
}

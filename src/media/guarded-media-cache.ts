import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { MediaCacheEntry, MediaCacheRepository } from '../storage/media-cache-repository.js';

/**
 * The media cache for the describers: a storage error on read counts as a miss and one on
 * write is only logged, so a broken database never turns a good description into `null`.
 */
export class GuardedMediaCache {
  readonly #repository: MediaCacheRepository;
  readonly #logger: Logger;

  constructor(repository: MediaCacheRepository, logger: Logger) {
    this.#repository = repository;
    this.#logger = logger;
  }

  get(kind: MediaCacheEntry['kind'], key: string): MediaCacheEntry | undefined {
    try {
      return this.#repository.get(kind, key);
    } catch (error) {
      this.#logger.warn({ kind, key, error: describeError(error) }, 'could not read the media cache; describing again');
      return undefined;
    }
  }

  put(entry: MediaCacheEntry): void {
    try {
      this.#repository.put(entry);
    } catch (error) {
      this.#logger.warn({ kind: entry.kind, key: entry.key, error: describeError(error) }, 'could not store a media description; it will be described again next time');
    }
  }
}

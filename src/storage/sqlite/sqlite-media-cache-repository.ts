import type BetterSqlite3 from 'better-sqlite3';
import type { MediaCacheEntry, MediaCacheRepository } from '../media-cache-repository.js';
import { writeError } from './write-error.js';

interface MediaCacheRow {
  kind: 'image' | 'video';
  cache_key: string;
  text: string;
  duration_s: number | null;
  created_at: number;
}

/** `MediaCacheRepository` on the `media_cache` table. */
export class SqliteMediaCacheRepository implements MediaCacheRepository {
  readonly #file: string;
  readonly #get: BetterSqlite3.Statement<[string, string], MediaCacheRow>;
  readonly #put: BetterSqlite3.Statement<[MediaCacheRow]>;

  constructor(database: BetterSqlite3.Database) {
    this.#file = database.name;
    this.#get = database.prepare('SELECT kind, cache_key, text, duration_s, created_at FROM media_cache WHERE kind = ? AND cache_key = ?');
    this.#put = database.prepare(
      `INSERT INTO media_cache (kind, cache_key, text, duration_s, created_at) VALUES (@kind, @cache_key, @text, @duration_s, @created_at)
       ON CONFLICT (kind, cache_key) DO UPDATE SET text = excluded.text, duration_s = excluded.duration_s, created_at = excluded.created_at`,
    );
  }

  get(kind: 'image' | 'video', key: string): MediaCacheEntry | undefined {
    const row = this.#get.get(kind, key);
    return row === undefined ? undefined : { kind: row.kind, key: row.cache_key, text: row.text, durationS: row.duration_s, createdAt: row.created_at };
  }

  put(entry: MediaCacheEntry): void {
    try {
      this.#put.run({ kind: entry.kind, cache_key: entry.key, text: entry.text, duration_s: entry.durationS, created_at: entry.createdAt });
    } catch (error) {
      throw writeError(this.#file, `cache the ${entry.kind} description ${entry.key}`, error);
    }
  }
}

import type BetterSqlite3 from 'better-sqlite3';
import type { SentNoticeRepository } from '../sent-notice-repository.js';
import { writeError } from './write-error.js';

/** `SentNoticeRepository` on the `sent_notices` table. */
export class SqliteSentNoticeRepository implements SentNoticeRepository {
  readonly #file: string;
  readonly #claim: BetterSqlite3.Statement<[string, number]>;
  readonly #has: BetterSqlite3.Statement<[string], { found: number }>;

  constructor(database: BetterSqlite3.Database) {
    this.#file = database.name;
    this.#claim = database.prepare('INSERT INTO sent_notices (key, sent_at_ms) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');
    this.#has = database.prepare('SELECT 1 AS found FROM sent_notices WHERE key = ?');
  }

  claim(key: string, atMs: number): boolean {
    try {
      return this.#claim.run(key, atMs).changes === 1;
    } catch (error) {
      throw writeError(this.#file, `record the notice ${key}`, error);
    }
  }

  has(key: string): boolean {
    return this.#has.get(key) !== undefined;
  }
}

import type BetterSqlite3 from 'better-sqlite3';
import type { AccountActivity, AccountActivityReader } from '../account-activity.js';

/**
 * `AccountActivityReader` over `streams` and `messages`. Each count is a range of the
 * `UNIQUE (stream_id, direction, message_id)` index, so no message row is read: about 0.1 s
 * for a million messages.
 */
export class SqliteAccountActivity implements AccountActivityReader {
  readonly #perAccount: BetterSqlite3.Statement<[], AccountActivity>;

  constructor(database: BetterSqlite3.Database) {
    this.#perAccount = database.prepare<[], AccountActivity>(
      `SELECT s.account AS account,
              COUNT(*) AS streams,
              SUM((SELECT COUNT(*) FROM messages m WHERE m.stream_id = s.stream_id AND m.direction = 'inbound')) AS inbound,
              SUM((SELECT COUNT(*) FROM messages m WHERE m.stream_id = s.stream_id AND m.direction = 'outbound')) AS outbound
       FROM streams s
       WHERE s.account IS NOT NULL
       GROUP BY s.account
       ORDER BY s.account`,
    );
  }

  perAccount(): AccountActivity[] {
    return this.#perAccount.all();
  }
}

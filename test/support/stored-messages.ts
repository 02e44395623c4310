import Database from 'better-sqlite3';
import { join } from 'node:path';
import { until } from './until.js';

/** The rows `sql` selects from a bot process's `<dataDir>/moonglass.db`, opened read-only. */
export function storedRows(dataDir: string, sql: string): Record<string, unknown>[] {
  const database = new Database(join(dataDir, 'moonglass.db'), { readonly: true });
  try {
    return database.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    database.close();
  }
}

/** The messages a bot process stored in `<dataDir>/moonglass.db`, in the order stored (read-only). */
export function storedMessages(dataDir: string): { direction: string; content: string }[] {
  return storedRows(dataDir, 'SELECT direction, content FROM messages ORDER BY row_id') as { direction: string; content: string }[];
}

/** Resolves when the database holds `count` messages (the bot is a separate process: poll). */
export function storedCount(dataDir: string, count: number): Promise<void> {
  return until(() => storedMessages(dataDir).length >= count, { what: `${count} stored messages in ${dataDir}`, everyMs: 50 });
}

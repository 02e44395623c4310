import Database from 'better-sqlite3';
import { join } from 'node:path';
import { until } from './until.js';

/** The messages a bot process stored in `<dataDir>/moonglass.db`, in the order stored (read-only). */
export function storedMessages(dataDir: string): { direction: string; content: string }[] {
  const database = new Database(join(dataDir, 'moonglass.db'), { readonly: true });
  try {
    return database.prepare('SELECT direction, content FROM messages ORDER BY row_id').all() as { direction: string; content: string }[];
  } finally {
    database.close();
  }
}

/** Resolves when the database holds `count` messages (the bot is a separate process: poll). */
export function storedCount(dataDir: string, count: number): Promise<void> {
  return until(() => storedMessages(dataDir).length >= count, { what: `${count} stored messages in ${dataDir}`, everyMs: 50 });
}

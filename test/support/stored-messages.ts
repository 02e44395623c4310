import Database from 'better-sqlite3';
import { join } from 'node:path';

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
export async function storedCount(dataDir: string, count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (storedMessages(dataDir).length < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} messages stored after ${timeoutMs} ms: ${JSON.stringify(storedMessages(dataDir))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

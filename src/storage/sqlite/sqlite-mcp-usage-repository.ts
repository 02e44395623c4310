import type BetterSqlite3 from 'better-sqlite3';
import type { McpUsageRepository } from '../mcp-usage-repository.js';
import { writeError } from './write-error.js';

/** `McpUsageRepository` on the `mcp_usage` table. */
export class SqliteMcpUsageRepository implements McpUsageRepository {
  readonly #database: BetterSqlite3.Database;
  readonly #count: BetterSqlite3.Statement<[string, string, string], { calls: number }>;
  readonly #increment: BetterSqlite3.Statement<[string, string, string]>;

  constructor(database: BetterSqlite3.Database) {
    this.#database = database;
    this.#count = database.prepare('SELECT calls FROM mcp_usage WHERE day = ? AND server = ? AND tool = ?');
    this.#increment = database.prepare(
      'INSERT INTO mcp_usage (day, server, tool, calls) VALUES (?, ?, ?, 1) ON CONFLICT (day, server, tool) DO UPDATE SET calls = calls + 1',
    );
  }

  count(day: string, server: string, tool: string): number {
    return this.#count.get(day, server, tool)?.calls ?? 0;
  }

  tryCount(day: string, server: string, tool: string, limit: number | undefined): boolean {
    try {
      return this.#database.transaction(() => {
        if (limit !== undefined && this.count(day, server, tool) >= limit) return false;
        this.#increment.run(day, server, tool);
        return true;
      })();
    } catch (error) {
      throw writeError(this.#database.name, `count a call of MCP tool ${server}/${tool}`, error);
    }
  }
}

/**
 * MCP tool calls counted per day, for the daily quotas. The model's calls and the plugins'
 * calls of a tool share one counter. `day` is the caller's calendar day key (`YYYY-MM-DD`).
 */
export interface McpUsageRepository {
  /** Calls of `server`/`tool` counted on `day` (0 when none). */
  count(day: string, server: string, tool: string): number;
  /**
   * Counts one call if fewer than `limit` were counted on `day`, atomically; returns whether it
   * was counted. `limit` undefined: always counted.
   */
  tryCount(day: string, server: string, tool: string, limit: number | undefined): boolean;
}

import type { Database } from './database.js';

const DAY_MS = 86_400_000;

/** What one retention pass removed, and the database's size around it. */
export interface RetentionReport {
  /** Epoch milliseconds: everything older than this was eligible. */
  cutoffMs: number;
  messages: number;
  toolCalls: number;
  modelCalls: number;
  /** `Database.sizeBytes()` before the pass and after the compaction. */
  sizeBeforeBytes: number;
  sizeAfterBytes: number;
}

/**
 * One retention pass: deletes the messages older than `keepDays` (never unread ones) and the
 * tool-call and model-call logs older than that, in one transaction, then compacts the file.
 * Throws a `StorageError` when a step fails (a failed delete changes nothing).
 */
export function applyRetention(database: Database, keepDays: number, nowMs: number): RetentionReport {
  const cutoffMs = nowMs - keepDays * DAY_MS;
  const sizeBeforeBytes = database.sizeBytes();
  const removed = database.transaction(() => ({
    messages: database.messages.deleteReadBefore(cutoffMs / 1000),
    toolCalls: database.toolCalls.deleteBefore(cutoffMs),
    modelCalls: database.modelCalls.deleteBefore(cutoffMs),
  }));
  database.compact();
  return { cutoffMs, ...removed, sizeBeforeBytes, sizeAfterBytes: database.sizeBytes() };
}

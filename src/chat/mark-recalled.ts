import type { Database } from '../storage/database.js';
import type { StreamManager } from './stream-manager.js';

/** What the prompt shows before a recalled message's text. */
export const RECALLED_MARK = '[已撤回]';

/**
 * Marks a stored inbound message recalled: its text in the prompt starts with `[已撤回]`,
 * and an unread one is moved to history, so no chatter answers it. Returns false when the
 * message is not stored (recalled before it arrived, or not one the host kept).
 */
export function markRecalled(database: Database, streams: StreamManager, streamId: string, messageId: string): boolean {
  const stored = database.messages.get(streamId, 'inbound', messageId);
  if (stored === undefined) return false;
  const text = stored.processedPlainText !== '' ? stored.processedPlainText : stored.content;
  if (!text.startsWith(RECALLED_MARK)) streams.updateInboundText(streamId, messageId, `${RECALLED_MARK} ${text}`);
  const unread = streams.fetchUnreads(streamId).filter((message) => message.messageId === messageId);
  if (unread.length > 0) streams.flushUnreads(streamId, unread);
  else database.messages.markRead(streamId, [messageId]);
  return true;
}

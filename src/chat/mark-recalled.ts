import type { Database } from '../storage/database.js';
import { RECALLED_MARK } from './recalled-mark.js';
import type { StreamManager } from './stream-manager.js';

export { RECALLED_MARK } from './recalled-mark.js';

/**
 * Marks a stored message recalled: its text in the prompt starts with `[已撤回]`. An inbound
 * one leaves the unread list (no chatter answers it), and a queued reply that answers only
 * recalled messages is withdrawn; one of the bot's own (an admin recalled it, or a plugin's
 * `delete_msg`) is marked so the bot knows it is gone. Returns false when no message of the
 * stream has that id (recalled before it arrived, or not one the host kept).
 */
export function markRecalled(database: Database, streams: StreamManager, streamId: string, messageId: string): boolean {
  const inbound = database.messages.get(streamId, 'inbound', messageId);
  if (inbound !== undefined) {
    const text = inbound.processedPlainText !== '' ? inbound.processedPlainText : inbound.content;
    if (!text.startsWith(RECALLED_MARK)) streams.updateInboundText(streamId, messageId, `${RECALLED_MARK} ${text}`);
    streams.noteRecalled(streamId, messageId);
    return true;
  }
  const outbound = database.messages.get(streamId, 'outbound', messageId);
  if (outbound === undefined) return false;
  const text = outbound.processedPlainText !== '' ? outbound.processedPlainText : outbound.content;
  if (!text.startsWith(RECALLED_MARK)) streams.updateOutboundText(streamId, messageId, `${RECALLED_MARK} ${text}`);
  return true;
}

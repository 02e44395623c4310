import type { MessageRecord } from '../storage/message-repository.js';

import type { ChatType } from '../kernel/components/component-metadata.js';

export type { ChatType };

/** Extras carried with a message; adapters may add more keys. */
export interface MessageExtra {
  /** User ids @-mentioned in the message. */
  at_users?: string[];
  /** True when the bot itself was @-mentioned (or replied to). */
  mentions_bot?: boolean;
  /** The group's platform id, on received group messages; absent on private ones and on the bot's own. */
  group_id?: string;
  [key: string]: unknown;
}

/**
 * One chat message, inbound or sent by the bot: the stored record (times in epoch seconds,
 * `content` as received, `processedPlainText` as the model sees it, `raw` the adapter's
 * payload) with its extras typed.
 */
export interface Message extends MessageRecord {
  /** A group chat or a one-to-one chat. */
  chatType: ChatType;
  /** What the adapter and the host attach beyond the stored columns (whether it mentions the bot, what it replies to, its media ...); see {@link MessageExtra}. */
  extra: MessageExtra;
}

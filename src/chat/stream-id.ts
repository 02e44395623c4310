import { createHash } from 'node:crypto';
import type { ChatType } from './message.js';

export interface StreamAddress {
  platform: string;
  /**
   * The bot account the conversation belongs to (OneBot: the connection's `self_id`). Two
   * accounts in the same group are two conversations. Absent, null or empty: an adapter
   * without accounts (the console), and streams stored before accounts had their own.
   */
  account?: string | null;
  chatType: ChatType;
  /** The group, for group chats. */
  groupId?: string | null;
  /** The other person, for private chats. */
  userId?: string | null;
}

/**
 * The stable id of a conversation: sha256 of `platform@account_group` for a group, of
 * `platform@account_user_private` for a private chat. Without an account, sha256 of
 * `platform_group` / `platform_user_private`: the predecessor's scheme, which the streams
 * stored before this change keep (see `StreamIds`). Throws when the address lacks the id
 * its chat type needs.
 */
export function streamIdFor(address: StreamAddress): string {
  const { platform, chatType } = address;
  if (platform === '') throw new TypeError('streamIdFor: platform is empty');
  const owner = address.account === undefined || address.account === null || address.account === '' ? platform : `${platform}@${address.account}`;
  const key =
    chatType === 'group'
      ? `${owner}_${requireId(address.groupId, 'groupId', chatType)}`
      : `${owner}_${requireId(address.userId, 'userId', chatType)}_private`;
  let id = hashed.get(key);
  if (id === undefined) {
    id = createHash('sha256').update(key).digest('hex');
    if (hashed.size >= MAX_HASHED) hashed.clear();
    hashed.set(key, id);
  }
  return id;
}

/** Ids already hashed, by key (every inbound message asks for its stream's); past the cap the cache starts again. */
const hashed = new Map<string, string>();
const MAX_HASHED = 20_000;

function requireId(value: string | null | undefined, field: string, chatType: ChatType): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`streamIdFor: a ${chatType} chat needs ${field}`);
  return value;
}

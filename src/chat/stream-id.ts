import { createHash } from 'node:crypto';
import type { ChatType } from './message.js';

export interface StreamAddress {
  platform: string;
  chatType: ChatType;
  /** The group, for group chats. */
  groupId?: string | null;
  /** The other person, for private chats. */
  userId?: string | null;
}

/**
 * The stable id of a conversation: sha256 of `platform_group` for a group, of
 * `platform_user_private` for a private chat (the predecessor's scheme, so ids survive a
 * migration). Throws when the address lacks the id its chat type needs.
 */
export function streamIdFor(address: StreamAddress): string {
  const { platform, chatType } = address;
  if (platform === '') throw new TypeError('streamIdFor: platform is empty');
  const key =
    chatType === 'group'
      ? `${platform}_${requireId(address.groupId, 'groupId', chatType)}`
      : `${platform}_${requireId(address.userId, 'userId', chatType)}_private`;
  return createHash('sha256').update(key).digest('hex');
}

function requireId(value: string | null | undefined, field: string, chatType: ChatType): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`streamIdFor: a ${chatType} chat needs ${field}`);
  return value;
}

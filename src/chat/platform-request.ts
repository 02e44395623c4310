import * as z from 'zod';
import { expected, PlatformIdSchema as Id } from './platform-id.js';

/**
 * Friend and group requests, shaped after OneBot v11's request events (event/request.md).
 * Answer one with the platform action `set_friend_add_request` / `set_group_add_request`,
 * passing its `flag` (and, for a group request, its `sub_type`).
 */

const comment = z.string(expected('a string')).nullish().transform((text) => text ?? '');
const flag = z.string(expected('a string')).min(1, { error: 'must not be empty' });

/** Someone asks to be the bot's friend; answer with `set_friend_add_request`. */
export const FriendRequestSchema = z.object({
  request_type: z.literal('friend'),
  user_id: Id,
  /** The verification text the requester wrote. */
  comment,
  flag,
});

/** Someone asks to join a group (`add`), or the bot is invited into one (`invite`); answer with `set_group_add_request`. */
export const GroupRequestSchema = z.object({
  request_type: z.literal('group'),
  /** `add`: someone asks to join the group; `invite`: the bot is invited into it. */
  sub_type: z.enum(['add', 'invite'], expected('"add" or "invite"')),
  group_id: Id,
  user_id: Id,
  comment,
  flag,
});

/** A friend request, as validated (see `FriendRequestSchema`). */
export type FriendRequest = z.output<typeof FriendRequestSchema>;
/** A group join request or invitation, as validated (see `GroupRequestSchema`). */
export type GroupRequest = z.output<typeof GroupRequestSchema>;
/** Every request the host understands; narrow on `request_type`. */
export type PlatformRequest = FriendRequest | GroupRequest;

/** The schema for a request of this `request_type`, or undefined for one outside v11. */
export function requestSchemaFor(requestType: unknown): z.ZodType<PlatformRequest, unknown> | undefined {
  if (requestType === 'friend') return FriendRequestSchema;
  if (requestType === 'group') return GroupRequestSchema;
  return undefined;
}

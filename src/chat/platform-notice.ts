import * as z from 'zod';
import { expected, PlatformIdSchema as Id } from './platform-id.js';

/**
 * The notices a platform reports besides messages, shaped after OneBot v11's notice events
 * (https://github.com/botuniverse/onebot-11, event/notice.md): the same `notice_type`,
 * `sub_type` and field names, with every id a string. Unknown keys are dropped.
 */

const str = z.string(expected('a string'));
const int = z.number(expected('a number')).int({ error: 'must be an integer' });

export const GroupUploadNoticeSchema = z.object({
  notice_type: z.literal('group_upload'),
  group_id: Id,
  user_id: Id,
  file: z.object(
    { id: str, name: str, size: z.number(expected('a number')), busid: z.union([int, str], expected('a number')).optional() },
    expected('an object'),
  ),
});

export const GroupAdminNoticeSchema = z.object({
  notice_type: z.literal('group_admin'),
  sub_type: z.enum(['set', 'unset'], expected('"set" or "unset"')),
  group_id: Id,
  user_id: Id,
});

export const GroupDecreaseNoticeSchema = z.object({
  notice_type: z.literal('group_decrease'),
  sub_type: z.enum(['leave', 'kick', 'kick_me'], expected('"leave", "kick" or "kick_me"')),
  group_id: Id,
  /** Who removed them; the member themself when they left. */
  operator_id: Id,
  user_id: Id,
});

export const GroupIncreaseNoticeSchema = z.object({
  notice_type: z.literal('group_increase'),
  sub_type: z.enum(['approve', 'invite'], expected('"approve" or "invite"')),
  group_id: Id,
  operator_id: Id,
  user_id: Id,
});

export const GroupBanNoticeSchema = z.object({
  notice_type: z.literal('group_ban'),
  sub_type: z.enum(['ban', 'lift_ban'], expected('"ban" or "lift_ban"')),
  group_id: Id,
  operator_id: Id,
  user_id: Id,
  /** Seconds; 0 on `lift_ban`. */
  duration: int,
});

export const FriendAddNoticeSchema = z.object({
  notice_type: z.literal('friend_add'),
  user_id: Id,
});

export const GroupRecallNoticeSchema = z.object({
  notice_type: z.literal('group_recall'),
  group_id: Id,
  /** Who sent the recalled message. */
  user_id: Id,
  operator_id: Id,
  message_id: Id,
});

export const FriendRecallNoticeSchema = z.object({
  notice_type: z.literal('friend_recall'),
  user_id: Id,
  message_id: Id,
});

/** A poke. v11 defines it in groups; NapCat and Lagrange also report private pokes, without `group_id`. */
export const PokeNoticeSchema = z.object({
  notice_type: z.literal('notify'),
  sub_type: z.literal('poke'),
  group_id: Id.nullish().transform((id) => id ?? null),
  user_id: Id,
  target_id: Id,
});

export const LuckyKingNoticeSchema = z.object({
  notice_type: z.literal('notify'),
  sub_type: z.literal('lucky_king'),
  group_id: Id,
  /** Who sent the red packet. */
  user_id: Id,
  /** The lucky king. */
  target_id: Id,
});

export const HonorNoticeSchema = z.object({
  notice_type: z.literal('notify'),
  sub_type: z.literal('honor'),
  group_id: Id,
  honor_type: z.enum(['talkative', 'performer', 'emotion'], expected('"talkative", "performer" or "emotion"')),
  user_id: Id,
});

export type GroupUploadNotice = z.output<typeof GroupUploadNoticeSchema>;
export type GroupAdminNotice = z.output<typeof GroupAdminNoticeSchema>;
export type GroupDecreaseNotice = z.output<typeof GroupDecreaseNoticeSchema>;
export type GroupIncreaseNotice = z.output<typeof GroupIncreaseNoticeSchema>;
export type GroupBanNotice = z.output<typeof GroupBanNoticeSchema>;
export type FriendAddNotice = z.output<typeof FriendAddNoticeSchema>;
export type GroupRecallNotice = z.output<typeof GroupRecallNoticeSchema>;
export type FriendRecallNotice = z.output<typeof FriendRecallNoticeSchema>;
export type PokeNotice = z.output<typeof PokeNoticeSchema>;
export type LuckyKingNotice = z.output<typeof LuckyKingNoticeSchema>;
export type HonorNotice = z.output<typeof HonorNoticeSchema>;

/** Every notice the host understands; narrow on `notice_type` (and `sub_type` for `notify`). */
export type PlatformNotice =
  | GroupUploadNotice
  | GroupAdminNotice
  | GroupDecreaseNotice
  | GroupIncreaseNotice
  | GroupBanNotice
  | FriendAddNotice
  | GroupRecallNotice
  | FriendRecallNotice
  | PokeNotice
  | LuckyKingNotice
  | HonorNotice;

const BY_TYPE: Readonly<Record<string, z.ZodType<PlatformNotice, unknown>>> = {
  group_upload: GroupUploadNoticeSchema,
  group_admin: GroupAdminNoticeSchema,
  group_decrease: GroupDecreaseNoticeSchema,
  group_increase: GroupIncreaseNoticeSchema,
  group_ban: GroupBanNoticeSchema,
  friend_add: FriendAddNoticeSchema,
  group_recall: GroupRecallNoticeSchema,
  friend_recall: FriendRecallNoticeSchema,
};

const NOTIFY_BY_SUB_TYPE: Readonly<Record<string, z.ZodType<PlatformNotice, unknown>>> = {
  poke: PokeNoticeSchema,
  lucky_king: LuckyKingNoticeSchema,
  honor: HonorNoticeSchema,
};

/**
 * The schema for a notice with these `notice_type` / `sub_type` values, or undefined for one
 * outside v11 (implementations add their own, e.g. NapCat's `group_card`): those are not errors.
 */
export function noticeSchemaFor(noticeType: unknown, subType: unknown): z.ZodType<PlatformNotice, unknown> | undefined {
  if (typeof noticeType !== 'string') return undefined;
  if (noticeType === 'notify') return typeof subType === 'string' ? NOTIFY_BY_SUB_TYPE[subType] : undefined;
  return Object.hasOwn(BY_TYPE, noticeType) ? BY_TYPE[noticeType] : undefined;
}

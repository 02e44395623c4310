import * as z from 'zod';
import { expected, PlatformIdSchema as Id } from './platform-id.js';

/**
 * The notices a platform reports besides messages, shaped after OneBot v11's notice events
 * (https://github.com/botuniverse/onebot-11, event/notice.md): the same `notice_type`,
 * `sub_type` and field names, with every id a string. Unknown keys are dropped.
 */

const str = z.string(expected('a string'));
const int = z.number(expected('a number')).int({ error: 'must be an integer' });

/** A file was uploaded to a group (`group_upload`); `file.size` in bytes. */
export const GroupUploadNoticeSchema = z.object({
  notice_type: z.literal('group_upload'),
  group_id: Id,
  user_id: Id,
  file: z.object(
    { id: str, name: str, size: z.number(expected('a number')), busid: z.union([int, str], expected('a number')).optional() },
    expected('an object'),
  ),
});

/** A member became a group admin (`set`) or stopped being one (`unset`). */
export const GroupAdminNoticeSchema = z.object({
  notice_type: z.literal('group_admin'),
  sub_type: z.enum(['set', 'unset'], expected('"set" or "unset"')),
  group_id: Id,
  user_id: Id,
});

/** A member left the group (`leave`), was removed (`kick`), or the bot itself was removed (`kick_me`). */
export const GroupDecreaseNoticeSchema = z.object({
  notice_type: z.literal('group_decrease'),
  sub_type: z.enum(['leave', 'kick', 'kick_me'], expected('"leave", "kick" or "kick_me"')),
  group_id: Id,
  /** Who removed them; the member themself when they left. */
  operator_id: Id,
  user_id: Id,
});

/** A member joined the group: approved by an admin (`approve`) or invited (`invite`). */
export const GroupIncreaseNoticeSchema = z.object({
  notice_type: z.literal('group_increase'),
  sub_type: z.enum(['approve', 'invite'], expected('"approve" or "invite"')),
  group_id: Id,
  operator_id: Id,
  user_id: Id,
});

/** A member was muted in the group (`ban`, for `duration` seconds) or unmuted (`lift_ban`). */
export const GroupBanNoticeSchema = z.object({
  notice_type: z.literal('group_ban'),
  sub_type: z.enum(['ban', 'lift_ban'], expected('"ban" or "lift_ban"')),
  group_id: Id,
  operator_id: Id,
  user_id: Id,
  /** Seconds; 0 on `lift_ban`. */
  duration: int,
});

/** A new friend was added (`friend_add`). */
export const FriendAddNoticeSchema = z.object({
  notice_type: z.literal('friend_add'),
  user_id: Id,
});

/** A group message was recalled (`group_recall`); the host marks the stored message recalled. */
export const GroupRecallNoticeSchema = z.object({
  notice_type: z.literal('group_recall'),
  group_id: Id,
  /** Who sent the recalled message. */
  user_id: Id,
  operator_id: Id,
  message_id: Id,
});

/** A private message was recalled (`friend_recall`); the host marks the stored message recalled. */
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

/** The lucky king of a group red packet (`notify` / `lucky_king`). */
export const LuckyKingNoticeSchema = z.object({
  notice_type: z.literal('notify'),
  sub_type: z.literal('lucky_king'),
  group_id: Id,
  /** Who sent the red packet. */
  user_id: Id,
  /** The lucky king. */
  target_id: Id,
});

/** A member got a group honour (`notify` / `honor`): `talkative` (龙王), `performer` (群聊之火) or `emotion` (快乐源泉). */
export const HonorNoticeSchema = z.object({
  notice_type: z.literal('notify'),
  sub_type: z.literal('honor'),
  group_id: Id,
  honor_type: z.enum(['talkative', 'performer', 'emotion'], expected('"talkative", "performer" or "emotion"')),
  user_id: Id,
});

/** The notice of a file uploaded to a group, as validated (see `GroupUploadNoticeSchema`). */
export type GroupUploadNotice = z.output<typeof GroupUploadNoticeSchema>;
/** The notice of a group admin set or unset, as validated (see `GroupAdminNoticeSchema`). */
export type GroupAdminNotice = z.output<typeof GroupAdminNoticeSchema>;
/** The notice of a member leaving or removed from a group, as validated (see `GroupDecreaseNoticeSchema`). */
export type GroupDecreaseNotice = z.output<typeof GroupDecreaseNoticeSchema>;
/** The notice of a member joining a group, as validated (see `GroupIncreaseNoticeSchema`). */
export type GroupIncreaseNotice = z.output<typeof GroupIncreaseNoticeSchema>;
/** The notice of a member muted or unmuted in a group, as validated (see `GroupBanNoticeSchema`). */
export type GroupBanNotice = z.output<typeof GroupBanNoticeSchema>;
/** The notice of a new friend, as validated (see `FriendAddNoticeSchema`). */
export type FriendAddNotice = z.output<typeof FriendAddNoticeSchema>;
/** The notice of a recalled group message, as validated (see `GroupRecallNoticeSchema`). */
export type GroupRecallNotice = z.output<typeof GroupRecallNoticeSchema>;
/** The notice of a recalled private message, as validated (see `FriendRecallNoticeSchema`). */
export type FriendRecallNotice = z.output<typeof FriendRecallNoticeSchema>;
/** The notice of a poke, as validated (see `PokeNoticeSchema`). */
export type PokeNotice = z.output<typeof PokeNoticeSchema>;
/** The notice of a red packet's lucky king, as validated (see `LuckyKingNoticeSchema`). */
export type LuckyKingNotice = z.output<typeof LuckyKingNoticeSchema>;
/** The notice of a group honour, as validated (see `HonorNoticeSchema`). */
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

import type { BotConfig } from '../chat/bot-config.js';
import type { CommandPermission } from '../kernel/components/command-metadata.js';

/** A sender's standing with the bot: owner > admin > member > guest. */
export type PermissionLevel = 'owner' | 'admin' | 'member' | 'guest';

const RANK: Readonly<Record<PermissionLevel, number>> = { guest: 0, member: 1, admin: 2, owner: 3 };

/** The facts of a message the level depends on. */
export interface SenderFacts {
  /** The platform name the `[permissions]` lists are keyed by (`qq`, `console` …). */
  readonly platform: string;
  /** The sender's platform id, looked up in those lists. */
  readonly senderId: string;
  /** OneBot's sender.role in groups: `owner`, `admin` or `member`; null elsewhere. */
  readonly senderRole?: string | null;
  /** Only in a group does `senderRole` make a group owner or admin an admin. */
  readonly chatType: 'private' | 'group';
}

/**
 * The sender's level under `bot.toml [permissions]`: the owners list first (an owner on the
 * blocklist stays an owner), then the blocklist (guest), then admins: the configured list,
 * or in a group the group's own owner and admins. Everyone else is a member.
 */
export function levelOf(message: SenderFacts, bot: Pick<BotConfig, 'permissions'>): PermissionLevel {
  const { owners, admins, blocklist } = bot.permissions;
  const id = message.senderId;
  if (owners[message.platform]?.includes(id) === true) return 'owner';
  if (blocklist[message.platform]?.includes(id) === true) return 'guest';
  if (admins[message.platform]?.includes(id) === true) return 'admin';
  if (message.chatType === 'group' && (message.senderRole === 'owner' || message.senderRole === 'admin')) return 'admin';
  return 'member';
}

/** True when `level` may run a command that asks for `required`. */
export function levelAllows(level: PermissionLevel, required: CommandPermission): boolean {
  return RANK[level] >= RANK[required];
}

/** The level's name in the bot's user-facing replies. */
export function levelLabel(level: PermissionLevel): string {
  switch (level) {
    case 'owner':
      return '主人';
    case 'admin':
      return '管理员';
    case 'member':
      return '成员';
    case 'guest':
      return '访客';
    default: {
      const unknown: never = level;
      return String(unknown);
    }
  }
}

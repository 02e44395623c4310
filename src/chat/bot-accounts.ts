import type { AccountOverride, BotConfig } from './bot-config.js';

/** The persona a conversation runs with: `bot.toml [bot]`, with its account's table over it. */
export type BotPersona = BotConfig['bot'];

/** An account's `[groups]` lists (group ids as strings); `deny` wins over `allow`, an empty `allow` lets every group in. */
export interface AccountGroups {
  /** The only groups whose messages and events reach the host from this account; empty: every group not denied. */
  allow: readonly string[];
  /** Groups whose messages and events the adapter drops for this account, even when allowed. */
  deny: readonly string[];
}

/**
 * The bot's default account on `platform`: the string entry `bot.toml [accounts] <platform> = "…"`.
 * Undefined when there is none (or it is empty); an account's table is never an account id.
 */
export function defaultAccountOf(bot: Pick<BotConfig, 'accounts'>, platform: string): string | undefined {
  const entry = Object.hasOwn(bot.accounts, platform) ? bot.accounts[platform] : undefined;
  return typeof entry === 'string' && entry !== '' ? entry : undefined;
}

/** Every platform's default account (the string entries of `[accounts]`). */
export function defaultAccounts(bot: Pick<BotConfig, 'accounts'>): Record<string, string> {
  const accounts: Record<string, string> = {};
  for (const [platform, entry] of Object.entries(bot.accounts)) if (typeof entry === 'string') accounts[platform] = entry;
  return accounts;
}

/** The table `[accounts."<account>"]`, when bot.toml has one for that account. */
export function accountOverrideOf(bot: Pick<BotConfig, 'accounts'>, account: string | null | undefined): AccountOverride | undefined {
  if (account === null || account === undefined || account === '' || !Object.hasOwn(bot.accounts, account)) return undefined;
  const entry = bot.accounts[account];
  return typeof entry === 'object' ? entry : undefined;
}

/**
 * The persona of `account`: `[bot]` with the settings of its `[accounts."<account>"]` table
 * over it (nickname, aliases, personality, identity, speaking_style). Without an account or
 * a table: `[bot]` as it is. The time zone is the bot's, never per account.
 */
export function personaFor(bot: Pick<BotConfig, 'bot' | 'accounts'>, account: string | null | undefined): BotPersona {
  const table = accountOverrideOf(bot, account);
  if (table === undefined) return bot.bot;
  const { groups: _groups, ...persona } = table;
  const defined = Object.fromEntries(Object.entries(persona).filter(([, value]) => value !== undefined));
  return { ...bot.bot, ...defined };
}

/** The groups of `account`'s table, when it sets them; undefined: the adapter's own `[groups]` apply. */
export function groupsFor(bot: Pick<BotConfig, 'accounts'>, account: string | null | undefined): AccountGroups | undefined {
  return accountOverrideOf(bot, account)?.groups;
}

/** Per account id, the groups its table sets (only accounts whose table has `groups`): what the adapter is given. */
export function accountGroupsOf(bot: Pick<BotConfig, 'accounts'>): Record<string, AccountGroups> {
  const groups: Record<string, AccountGroups> = {};
  for (const [account, entry] of Object.entries(bot.accounts)) {
    if (typeof entry === 'object' && entry.groups !== undefined) groups[account] = { allow: [...entry.groups.allow], deny: [...entry.groups.deny] };
  }
  return groups;
}

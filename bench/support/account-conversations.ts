/** One private conversation of a multi-account load: a user talking to one bot account. */
export interface PlannedConversation {
  /** Index into the run's accounts (and peers). */
  account: number;
  userId: number;
  nickname: string;
  /** True when the same user also talks to the partner account at the same time. */
  sharedUser: boolean;
}

/** Unshared users of account `a` are numbered from `a`'s own block, so they never meet. */
const USER_BLOCK = 1_000_000;
const UNSHARED_BASE = 100_000;
/** Users who talk to two accounts: one block per account pair (0-1, 2-3, ...). */
const SHARED_BASE = 50_000_000;

/**
 * `conversations` private conversations dealt round-robin over `accounts` bot accounts
 * (conversation c goes to account c % accounts). User ids are unique within each account. In
 * each pair of accounts (0 and 1, 2 and 3, ...) the first `sharedFraction` of each account's
 * conversations are with the same users: user k of account 0 is user k of account 1, so those
 * users talk to both accounts at once (two conversations, one per account). One account, or
 * an account without a partner, has no shared users.
 */
export function planConversations(conversations: number, accounts: number, sharedFraction: number): PlannedConversation[] {
  if (!Number.isInteger(accounts) || accounts < 1) throw new Error(`planConversations: accounts must be a positive integer, got ${accounts}`);
  const fewestPerAccount = Math.floor(conversations / accounts);
  const sharedPerAccount = Math.floor(fewestPerAccount * sharedFraction);
  const plan: PlannedConversation[] = [];
  for (let index = 0; index < conversations; index += 1) {
    const account = index % accounts;
    const slot = Math.floor(index / accounts);
    const hasPartner = (account ^ 1) < accounts;
    const sharedUser = hasPartner && slot < sharedPerAccount;
    const userId = sharedUser ? SHARED_BASE + (account >> 1) * USER_BLOCK + slot : UNSHARED_BASE + account * USER_BLOCK + slot;
    plan.push({ account, userId, nickname: `用户${userId}`, sharedUser });
  }
  return plan;
}

/** The text of message `index` in conversation `conversation`: unique in the run, and names both. */
export const conversationText = (conversation: number, index: number) => `c${conversation}-m${index}`;

/** The conversation and message index a text names, or undefined when it is not one of ours. */
export function parseConversationText(text: string): { conversation: number; index: number } | undefined {
  const match = /^c(\d+)-m(\d+)$/.exec(text);
  return match === null ? undefined : { conversation: Number(match[1]), index: Number(match[2]) };
}

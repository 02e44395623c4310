import type { AdminHostView } from './admin-host-view.js';

/** One bot account as the Overview page's Accounts table shows it. */
export interface AccountOverview {
  selfId: string;
  /** The name the bot goes by on this account. */
  nickname: string;
  connected: boolean;
  /** The adapter's line about the connection, or why the account shows as offline. */
  detail: string | null;
  /** Messages received and sent in the account's conversations (every stored one). */
  inbound: number;
  outbound: number;
  /** Conversations (streams) that belong to the account. */
  streams: number;
}

/** Shown for an account that owns stored conversations but has not connected since the host started. */
export const NOT_CONNECTED_SINCE_START = 'not connected since the host started';

/**
 * Every account the adapter reports (in its order: first connection first), then every
 * account that owns stored conversations but the adapter does not know now (by self id),
 * shown offline. The counts come from the database.
 */
export function accountsOverview(view: AdminHostView): AccountOverview[] {
  const activity = new Map(view.database.accountActivity.perAccount().map((entry) => [entry.account, entry]));
  const reported = view.adapterStatus()?.accounts ?? [];
  const counts = (selfId: string) => {
    const stored = activity.get(selfId);
    return { inbound: stored?.inbound ?? 0, outbound: stored?.outbound ?? 0, streams: stored?.streams ?? 0 };
  };
  const known = new Set(reported.map((account) => account.selfId));
  return [
    ...reported.map((account) => ({
      selfId: account.selfId,
      nickname: view.accountNickname(account.selfId),
      connected: account.connected,
      detail: account.detail ?? null,
      ...counts(account.selfId),
    })),
    ...[...activity.keys()]
      .filter((selfId) => !known.has(selfId))
      .map((selfId) => ({ selfId, nickname: view.accountNickname(selfId), connected: false, detail: NOT_CONNECTED_SINCE_START, ...counts(selfId) })),
  ];
}

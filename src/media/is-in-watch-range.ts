import type { InboundForWatchRange } from './media-types.js';

/** Which inbound videos are watched on arrival (`[media] video_watch_scope`). */
export type VideoWatchScope = 'related' | 'all';

/** The names the bot answers to. */
export interface BotNames {
  nickname: string;
  aliases: readonly string[];
}

/**
 * Whether an inbound message's videos are watched on arrival: always for scope `all`; for
 * `related`, a private chat, a message that mentions the bot (`extra.mentions_bot`: an @ or
 * a reply to it), or text containing its nickname or an alias (letters compared without case).
 */
export function isInWatchRange(inbound: InboundForWatchRange, scope: VideoWatchScope, bot: BotNames): boolean {
  if (scope === 'all') return true;
  if (inbound.chatType === 'private') return true;
  if (inbound.extra?.['mentions_bot'] === true) return true;
  const text = (inbound.processedPlainText ?? '').toLowerCase();
  return [bot.nickname, ...bot.aliases].some((name) => name.trim() !== '' && text.includes(name.trim().toLowerCase()));
}

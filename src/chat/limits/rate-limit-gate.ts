import type { Clock } from '../../kernel/time/clock.js';
import type { Logger } from '../../kernel/logger/logger.js';
import type { BotConfig } from '../bot-config.js';
import { type InboundGate, PASS } from '../inbound-gates.js';
import type { Message } from '../message.js';
import { SlidingWindowLimiter } from './sliding-window-limiter.js';

/** Where the rate-limit gate runs among the inbound gates (after guests 100 and commands 200). */
export const RATE_LIMIT_GATE_ORDER = 300;

export interface RateLimitGateOptions {
  /** `bot.toml [limits]`. */
  limits: BotConfig['limits'];
  /** `bot.toml [permissions] owners`: an owner is never rate-limited, nor counted. */
  owners: BotConfig['permissions']['owners'];
  clock: Clock;
  logger: Logger;
}

/**
 * The `bot.toml [limits]` gate: `per_user` counts a user's messages across every chat (by
 * platform and user id), `per_chat` the messages of one conversation; a message past either
 * is stored as read and never answered. Each user (or chat) past its limit gets one debug
 * line per window, not one per message. `undefined` when no limit is set.
 */
export function createRateLimitGate(options: RateLimitGateOptions): (InboundGate & { readonly tracked: () => number }) | undefined {
  const { limits, owners, clock, logger } = options;
  const limiter = (limit: { replies: number; window_seconds: number } | undefined) =>
    limit === undefined ? undefined : new SlidingWindowLimiter(limit.replies, Math.round(limit.window_seconds * 1000));
  const perUser = limiter(limits.per_user);
  const perChat = limiter(limits.per_chat);
  if (perUser === undefined && perChat === undefined) return undefined;
  // Until when each user or chat past its limit has been logged (its window's reopening);
  // marks come due within a window, so sweeping once per (shortest) window keeps them few.
  const noted = new Map<string, number>();
  const sweepEveryMs = Math.min(perUser?.windowMs ?? Number.POSITIVE_INFINITY, perChat?.windowMs ?? Number.POSITIVE_INFINITY);
  let sweptAt = Number.NEGATIVE_INFINITY;
  const sweepNoted = (now: number): void => {
    if (now - sweptAt < sweepEveryMs) return;
    sweptAt = now;
    for (const [key, until] of noted) if (until <= now) noted.delete(key);
  };

  const noteOnce = (key: string, until: number, fields: Record<string, unknown>, text: string): void => {
    if ((noted.get(key) ?? Number.NEGATIVE_INFINITY) > clock.now()) return;
    noted.set(key, until);
    logger.debug({ ...fields, until: new Date(until).toISOString() }, text);
  };

  const check = (message: Message) => {
    if ((owners[message.platform] ?? []).includes(message.senderId)) return PASS;
    const now = clock.now();
    sweepNoted(now);
    const userKey = `${message.platform}:${message.senderId}`;
    if (perUser !== undefined && !perUser.hasRoom(userKey, now)) {
      const seconds = perUser.windowMs / 1000;
      noteOnce(
        `user:${userKey}`,
        perUser.reopensAt(userKey, now),
        { user_id: message.senderId, platform: message.platform, stream_id: message.streamId, replies: perUser.replies, window_seconds: seconds },
        `rate limit: user ${message.senderId} reached ${perUser.replies} messages in ${seconds} s; the next ones are stored, not answered, until the window has room`,
      );
      return { pass: false as const, quiet: true, reason: `rate limit per user: ${perUser.replies} per ${seconds} s` };
    }
    if (perChat !== undefined && !perChat.hasRoom(message.streamId, now)) {
      const seconds = perChat.windowMs / 1000;
      noteOnce(
        `chat:${message.streamId}`,
        perChat.reopensAt(message.streamId, now),
        { stream_id: message.streamId, replies: perChat.replies, window_seconds: seconds },
        `rate limit: chat ${message.streamId} reached ${perChat.replies} messages in ${seconds} s; the next ones are stored, not answered, until the window has room`,
      );
      return { pass: false as const, quiet: true, reason: `rate limit per chat: ${perChat.replies} per ${seconds} s` };
    }
    perUser?.take(userKey, now);
    perChat?.take(message.streamId, now);
    return PASS;
  };

  return { name: 'rate limit', order: RATE_LIMIT_GATE_ORDER, check, tracked: () => (perUser?.size ?? 0) + (perChat?.size ?? 0) + noted.size };
}

import { defaultAccountOf } from '../chat/bot-accounts.js';
import type { BotConfig } from '../chat/bot-config.js';
import type { StreamApi } from '../chat/stream-api.js';
import { StreamIds } from '../chat/stream-ids.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import type { TokenBudgetSpentError } from '../llm/errors/token-budget-spent-error.js';
import type { Database } from '../storage/database.js';

export interface BudgetNoticeOptions {
  bot: BotConfig;
  /** The storage as bound now (the owner's private conversation is stored there when it is new). */
  database: () => Database;
  streams: StreamApi;
  clock: Clock;
  logger: Logger;
}

/** The private message an owner gets when a task's daily token budget is spent. */
export function budgetNoticeText(error: TokenBudgetSpentError): string {
  return `今天的 token 预算用完了：任务 ${error.taskName} 已用 ${error.used} / ${error.budget} tokens（${error.day}）。到 ${error.timeZone} 的 00:00 之前，这个任务的请求都会失败，消息先留着不回；提高 config/models.toml [tasks.${error.taskName}] daily_token_budget 并重启即可恢复。`;
}

/**
 * Tells the bot's owners (`bot.toml [permissions] owners`, per platform) that a task's
 * budget is spent, once per task per local day (recorded in the database, so a restart on
 * the same day does not tell them again), as a private message through the durable outbox. An owner the bot has
 * never talked to privately gets that conversation made first (as the ingress would make
 * it); on the platform of the conversation that hit the budget the notice goes out on that
 * conversation's account, elsewhere on the platform's default account. Returns the function
 * to call on each refused request.
 */
export function budgetOwnerNotice(options: BudgetNoticeOptions): (error: TokenBudgetSpentError, streamId: string | undefined) => void {
  const { bot, streams, clock, logger } = options;
  // Seen this process: every refused request asks, so the database is asked once per key.
  const told = new Set<string>();
  return (error, streamId) => {
    const key = `budget:${error.day}:${error.taskName}`;
    if (told.has(key)) return;
    for (const earlier of told) if (!earlier.startsWith(`budget:${error.day}:`)) told.delete(earlier);
    told.add(key);
    try {
      if (!options.database().sentNotices.claim(key, clock.now())) return; // told before a restart today
    } catch (failure) {
      logger.warn({ key, error: describeError(failure) }, 'could not record the budget notice as sent; sending it anyway');
    }
    const owners = Object.entries(bot.permissions.owners).flatMap(([platform, ids]) => ids.map((id) => ({ platform, id })));
    logger.warn(
      { task_name: error.taskName, used: error.used, budget: error.budget, day: error.day, owners: owners.length },
      `${error.message}. ${owners.length === 0 ? 'No owner to tell: bot.toml [permissions] owners is empty.' : `Each of the ${owners.length} owner(s) gets one private notice.`}`,
    );
    const source = streamId === undefined || streamId === '' ? undefined : streams.getStream(streamId) ?? streams.activateStream(streamId);
    for (const owner of owners) {
      try {
        const account = source?.platform === owner.platform ? source.account : (defaultAccountOf(bot, owner.platform) ?? null);
        const target = ownerStream(options.database(), owner.platform, account, owner.id, clock.now() / 1000);
        void streams.send(target, { content: budgetNoticeText(error) }).then(
          (outcome) => {
            if (outcome.status === 'failed' || outcome.status === 'cancelled') logger.warn({ owner: owner.id, platform: owner.platform, reason: outcome.reason }, 'the budget notice to an owner was not sent');
          },
          (failure: unknown) => logger.warn({ owner: owner.id, platform: owner.platform, error: describeError(failure) }, 'the budget notice to an owner was not sent'),
        );
      } catch (failure) {
        logger.warn({ owner: owner.id, platform: owner.platform, error: describeError(failure) }, 'the budget notice to an owner was not sent');
      }
    }
  };
}

/** The private conversation with `userId` on `account`, stored first when it is new. */
function ownerStream(database: Database, platform: string, account: string | null, userId: string, nowSeconds: number): string {
  const streamId = new StreamIds(database).lookup({ platform, account, chatType: 'private', userId });
  if (database.streams.get(streamId) === undefined) {
    database.streams.upsert({ streamId, platform, chatType: 'private', groupId: null, groupName: null, userId, userName: null, createdAt: nowSeconds, lastActiveAt: nowSeconds, account });
  }
  return streamId;
}

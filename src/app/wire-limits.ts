import { createRateLimitGate } from '../chat/limits/rate-limit-gate.js';
import { TOKENS } from '../kernel/tokens.js';
import { budgetedLlm } from '../llm/budget/budgeted-llm.js';
import { type TokensToday, TokenBudgets } from '../llm/budget/token-budgets.js';
import type { LlmService } from '../llm/llm-service.js';
import { budgetOwnerNotice } from './budget-owner-notice.js';
import type { Host } from './create-host.js';

/** What `wireLimits` set up on a host. */
export interface HostLimits {
  budgets: TokenBudgets;
  /** Tokens left today under `taskName`'s daily budget (0 when spent); undefined: the task has no budget (`runtime.budgetLeft`). */
  budgetLeft(taskName: string): number | undefined;
  /** Users, chats and log marks the rate limits hold in memory (0 without limits). */
  rateLimitEntries(): number;
}

const wired = new WeakMap<Host, HostLimits>();

/** The limits of a host `wireLimits` was called on (the web console's Usage page reads them). */
export function limitsOf(host: Host): HostLimits | undefined {
  return wired.get(host);
}

/** Today's tokens per task with their budgets, in the bot's time zone (the console's Usage page). */
export function tokensTodayOf(host: Host): TokensToday | undefined {
  const budgets = wired.get(host)?.budgets;
  if (budgets === undefined) return undefined;
  const { key, timeZone } = budgets.day();
  return { day: key, timeZone, tasks: budgets.today() };
}

/**
 * Issue 18 item 4 on a host whose chat parts are built: the `bot.toml [limits]` rate-limit
 * gate (order 300, after commands), and the daily token budgets of `models.toml` in front of
 * `TOKENS.Llm` (its default or an override made before; a later override replaces them),
 * counted from the model-call log, with one notice per task per day to the owners.
 */
export function wireLimits(host: Host): HostLimits {
  const chat = host.chat;
  const gate = createRateLimitGate({ limits: chat.bot.limits, owners: chat.bot.permissions.owners, clock: host.clock, logger: host.logger });
  if (gate !== undefined) chat.gates.add(gate);
  const budgets = new TokenBudgets({
    config: chat.models,
    timeZone: chat.bot.bot.timezone,
    clock: host.clock,
    tokensSince: (sinceMs) => {
      const tokens = new Map<string, number>();
      for (const row of chat.storage.modelCalls.dailyUsage(sinceMs)) tokens.set(row.task, (tokens.get(row.task) ?? 0) + row.promptTokens + row.completionTokens);
      return tokens;
    },
  });
  if (Object.values(chat.models.tasks).some((task) => task.daily_token_budget !== undefined)) {
    const notify = budgetOwnerNotice({ bot: chat.bot, database: () => chat.storage, streams: chat.runtime.streams, clock: host.clock, logger: host.logger });
    host.registry.override<LlmService>(TOKENS.Llm, {
      wrap: (llm) => budgetedLlm(llm, { budgets, bus: host.bus, clock: host.clock, logger: host.logger, onSpent: (error, init) => notify(error, init.streamId) }),
    });
  }
  const budgetLeft = (taskName: string): number | undefined => {
    if (!budgets.limits(taskName)) return undefined;
    const today = budgets.today().find((task) => task.task === taskName);
    return today?.budget === null || today === undefined ? undefined : Math.max(0, today.budget - today.tokens);
  };
  const limits: HostLimits = { budgets, budgetLeft, rateLimitEntries: () => gate?.tracked() ?? 0 };
  wired.set(host, limits);
  return limits;
}

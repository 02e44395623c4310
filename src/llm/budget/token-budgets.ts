import type { Clock } from '../../kernel/time/clock.js';
import { TokenBudgetSpentError } from '../errors/token-budget-spent-error.js';
import type { ModelsConfig } from '../models-config.js';
import { localDayOf } from '../../kernel/time/local-day.js';
import { resolveTimeZone } from '../../kernel/time/zoned-time.js';

/** One task's tokens today, as the Usage page shows them. */
export interface TaskTokensToday {
  task: string;
  /** Prompt + completion tokens the providers reported today (local day in the bot's time zone). */
  tokens: number;
  /** `daily_token_budget`; null: none. */
  budget: number | null;
  /** `tokens / budget`, 0..(past 1 when a call overshot); null without a budget. */
  share: number | null;
}

/** The local day's usage of every task, as the console's Usage page reads it. */
export interface TokensToday {
  /** `YYYY-MM-DD` in `timeZone`. */
  day: string;
  timeZone: string;
  tasks: TaskTokensToday[];
}

export interface TokenBudgetsOptions {
  /** The validated `models.toml`: each task's `daily_token_budget`. */
  config: ModelsConfig;
  /** `bot.toml [bot] timezone` (`''`: the machine's). */
  timeZone: string;
  clock: Clock;
  /**
   * Prompt + completion tokens per task for the calls made at or after `sinceMs`, as the
   * model-call log holds them (the providers' usage reports).
   */
  tokensSince(sinceMs: number): ReadonlyMap<string, number>;
}

/**
 * The daily token budgets of `models.toml [tasks.<name>] daily_token_budget`, counted per
 * local day (in the bot's time zone, on the host's clock) from the providers' usage reports
 * as the model-call log holds them. A call already running when the budget is reached
 * finishes (so the day may end a little over); the next one is refused.
 */
export class TokenBudgets {
  readonly #options: TokenBudgetsOptions;
  readonly #budgets: ReadonlyMap<string, number>;

  constructor(options: TokenBudgetsOptions) {
    this.#options = options;
    const budgets = new Map<string, number>();
    for (const [task, settings] of Object.entries(options.config.tasks)) if (settings.daily_token_budget !== undefined) budgets.set(task, settings.daily_token_budget);
    this.#budgets = budgets;
  }

  /** True when `task` has a budget at all. */
  limits(task: string): boolean {
    return this.#budgets.has(task);
  }

  /** Throws `TokenBudgetSpentError` when `task`'s budget for today is spent. */
  assertAvailable(task: string): void {
    const budget = this.#budgets.get(task);
    if (budget === undefined) return;
    const day = localDayOf(this.#options.clock.now(), this.#options.timeZone);
    const used = this.#options.tokensSince(day.start).get(task) ?? 0;
    if (used < budget) return;
    throw new TokenBudgetSpentError({ taskName: task, budget, used, day: day.key, resetsAt: day.end, timeZone: resolveTimeZone(this.#options.timeZone) });
  }

  /** Every task with tokens today or a budget, by name. */
  today(): TaskTokensToday[] {
    const day = localDayOf(this.#options.clock.now(), this.#options.timeZone);
    const used = this.#options.tokensSince(day.start);
    const tasks = [...new Set([...used.keys(), ...this.#budgets.keys()])].sort();
    return tasks.map((task) => {
      const tokens = used.get(task) ?? 0;
      const budget = this.#budgets.get(task) ?? null;
      return { task, tokens, budget, share: budget === null ? null : tokens / budget };
    });
  }

  /** The local day now, in the bot's time zone. */
  day(): { key: string; start: number; end: number; timeZone: string } {
    return { ...localDayOf(this.#options.clock.now(), this.#options.timeZone), timeZone: resolveTimeZone(this.#options.timeZone) };
  }
}

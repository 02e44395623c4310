import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/** The facts of a spent daily token budget. */
export interface TokenBudgetSpentDetails {
  /** The task whose budget is spent. */
  taskName: string;
  /** `models.toml [tasks.<name>] daily_token_budget`. */
  budget: number;
  /** Prompt + completion tokens the providers reported for the task today. */
  used: number;
  /** The local day, `YYYY-MM-DD`, in `timeZone`. */
  day: string;
  /** Epoch milliseconds of the next local midnight, when the budget is whole again. */
  resetsAt: number;
  /** The IANA time zone the day is counted in. */
  timeZone: string;
}

/**
 * A task's daily token budget is spent: its requests fail before any model is called, until
 * the next local day (or a raised budget, read at start). Not a reason to try the task's next
 * model, so the request fails at once with this error.
 */
export class TokenBudgetSpentError extends MoonglassError {
  /** The task whose budget is spent. */
  readonly taskName: string;
  /** The task's daily token budget (`daily_token_budget`). */
  readonly budget: number;
  /** Prompt + completion tokens the providers reported for the task today. */
  readonly used: number;
  /** The local day, `YYYY-MM-DD`, in `timeZone`. */
  readonly day: string;
  /** Epoch milliseconds of the next local midnight, when the budget is whole again. */
  readonly resetsAt: number;
  /** The IANA time zone the day is counted in. */
  readonly timeZone: string;
  /** When a request of the task can succeed again (`resetsAt`): a stream driver waits until then instead of retrying. */
  readonly retryAt: number;

  constructor(details: TokenBudgetSpentDetails) {
    super(
      'MG_LLM_BUDGET_SPENT',
      `daily token budget of task ${details.taskName} spent: ${details.used} of ${details.budget} tokens today (${details.day}); it resets at 00:00 ${details.timeZone} or when config/models.toml [tasks.${details.taskName}] daily_token_budget is raised (read at start)`,
    );
    this.taskName = details.taskName;
    this.budget = details.budget;
    this.used = details.used;
    this.day = details.day;
    this.resetsAt = details.resetsAt;
    this.timeZone = details.timeZone;
    this.retryAt = details.resetsAt;
  }
}

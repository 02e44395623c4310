import { describeError } from '../../kernel/errors/describe-error.js';
import { MoonglassError } from '../../kernel/errors/moonglass-error.js';
import type { EventBus } from '../../kernel/event-bus/event-bus.js';
import type { Logger } from '../../kernel/logger/logger.js';
import { overlay } from '../../kernel/registry/overlay.js';
import type { Clock } from '../../kernel/time/clock.js';
import type { TokenBudgetSpentError } from '../errors/token-budget-spent-error.js';
import { LLMRequest, type LLMRequestInit } from '../llm-request.js';
import type { LlmService } from '../llm-service.js';
import type { ModelClient } from '../model-client.js';
import type { TokenBudgets } from './token-budgets.js';

export interface BudgetedLlmOptions {
  budgets: TokenBudgets;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** A request of a task with a spent budget was refused (every time; the caller says it once). */
  onSpent?(error: TokenBudgetSpentError, init: LLMRequestInit): void;
}

/**
 * `llm` with the daily token budgets in front of its model clients: a request of a task
 * with a budget gets its models' clients wrapped, so each call checks the budget right
 * before it would go out, and a spent one fails with `TokenBudgetSpentError` (no HTTP call;
 * not a model failure, so no fallback to the task's next model). A ModelCall does not name
 * its task, which is why the wrap is made per request here and not on `TOKENS.ModelClient`.
 */
export function budgetedLlm(llm: LlmService, options: BudgetedLlmOptions): LlmService {
  const { budgets, bus, clock, logger } = options;
  const guarded = (client: ModelClient, init: LLMRequestInit): ModelClient => ({
    complete(call, signal) {
      try {
        budgets.assertAvailable(init.taskName);
      } catch (error) {
        if (MoonglassError.hasCode(error, 'MG_LLM_BUDGET_SPENT')) {
          options.onSpent?.(error as TokenBudgetSpentError, init);
          return Promise.reject(error);
        }
        // The usage could not be read (the database closing, say): the call goes on; a broken count never silences the bot.
        logger.warn({ task_name: init.taskName, error: describeError(error) }, 'could not check the daily token budget; the model call goes on');
      }
      return client.complete(call, signal);
    },
  });
  return overlay(llm, {
    createRequest(init: LLMRequestInit): LLMRequest {
      if (!budgets.limits(init.taskName)) return llm.createRequest(init);
      const models = llm.modelsFor(init.taskName).map((model) => ({ ...model, client: guarded(model.client, init) }));
      return new LLMRequest({ bus, clock, logger, models }, init);
    },
  });
}

import { EventDecision } from '../kernel/event-bus/event-decision.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Clock } from '../kernel/time/clock.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { ModelCallLog } from '../storage/model-call-log.js';

/**
 * Keeps every model request in the model-call log (task, model, tokens, latency, failures)
 * for the web console's usage page, by watching `after_llm_request` and
 * `on_llm_request_failed` (PASS, at the lowest weight, so it sees what the handlers left).
 * Returns the unsubscribers.
 */
export function recordModelCalls(options: { bus: EventBus; log: ModelCallLog; clock: Clock; logger: Logger }): (() => void)[] {
  const { bus, log, clock, logger } = options;
  const keep = (entry: Parameters<ModelCallLog['record']>[0]) => {
    try {
      log.record(entry);
    } catch (error) {
      logger.warn({ error: describeError(error) }, 'could not log a model call for the usage page');
    }
  };
  const subscription = { weight: -1_000_000, label: 'moonglass:model_call_log', owner: 'moonglass', timeout: 0 };
  return [
    bus.subscribe(
      'after_llm_request',
      (_event, params) => {
        keep({
          time: clock.now(),
          task: params.task_name,
          requestName: params.request_name,
          model: params.model,
          streamId: params.stream_id === '' ? null : params.stream_id,
          success: true,
          promptTokens: params.usage?.promptTokens ?? null,
          completionTokens: params.usage?.completionTokens ?? null,
          durationMs: params.duration_ms,
        });
        return [EventDecision.PASS, params];
      },
      subscription,
    ),
    bus.subscribe(
      'on_llm_request_failed',
      (_event, params) => {
        keep({
          time: clock.now(),
          task: params.task_name,
          requestName: params.request_name,
          model: null,
          streamId: params.stream_id === '' ? null : params.stream_id,
          success: false,
          promptTokens: null,
          completionTokens: null,
          durationMs: null,
        });
        return [EventDecision.PASS, params];
      },
      subscription,
    ),
  ];
}

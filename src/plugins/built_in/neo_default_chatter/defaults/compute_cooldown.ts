import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { ComputeCooldownPayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/**
 * Default of `:compute_cooldown`: `Math.trunc(minutes * 60)` seconds (Python's `int()`) when
 * `enable_cooldown` is on, else 0. Negative or non-finite minutes give 0.
 */
@eventHandler({ name: 'compute_cooldown_default', subscribe: [NdfcEvent.COMPUTE_COOLDOWN], weight: 0 })
export class ComputeCooldownDefaultHandler extends BaseEventHandler<typeof NdfcEvent.COMPUTE_COOLDOWN> {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {
    super();
  }

  execute(_event: typeof NdfcEvent.COMPUTE_COOLDOWN, params: ComputeCooldownPayload): HandlerResult<ComputeCooldownPayload> {
    try {
      const seconds = params.config.enable_cooldown && Number.isFinite(params.minutes) ? Math.max(0, Math.trunc(params.minutes * 60)) : 0;
      return [EventDecision.SUCCESS, { ...params, cooldown_seconds: seconds }];
    } catch (error) {
      return passAfterFailure(this.logger, 'compute_cooldown_default', params, error);
    }
  }
}

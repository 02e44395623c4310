import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { BuildNegativeExtraPayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';
import { NEGATIVE_BEHAVIORS } from './negative-behaviors.js';

/**
 * Default of `:build_negative_extra`: appends NDFC's eight negative behaviours after whatever
 * higher-weight handlers appended, when `config.reinforce_negative_behaviors` is on (also
 * when `config` is null: the option defaults to on).
 */
@eventHandler({ name: 'build_negative_extra_default', subscribe: [NdfcEvent.BUILD_NEGATIVE_EXTRA], weight: 0 })
export class BuildNegativeExtraDefaultHandler extends BaseEventHandler<typeof NdfcEvent.BUILD_NEGATIVE_EXTRA> {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {
    super();
  }

  execute(_event: typeof NdfcEvent.BUILD_NEGATIVE_EXTRA, params: BuildNegativeExtraPayload): HandlerResult<BuildNegativeExtraPayload> {
    try {
      if (params.config?.reinforce_negative_behaviors === false) return [EventDecision.PASS, params];
      return [EventDecision.SUCCESS, { ...params, fragments: [...params.fragments, ...NEGATIVE_BEHAVIORS] }];
    } catch (error) {
      return passAfterFailure(this.logger, 'build_negative_extra_default', params, error);
    }
  }
}

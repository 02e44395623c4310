import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { ComputeStopWakePayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/**
 * Default of `:compute_stop_wake`: in a private chat with `enable_stop_direct_message_wake`
 * on, `stop_direct_message_wake_probability` kept within 0..1; otherwise 0.0.
 */
@eventHandler({ name: 'compute_stop_wake_default', subscribe: [NdfcEvent.COMPUTE_STOP_WAKE], weight: 0 })
export class ComputeStopWakeDefaultHandler extends BaseEventHandler<typeof NdfcEvent.COMPUTE_STOP_WAKE> {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {
    super();
  }

  execute(_event: typeof NdfcEvent.COMPUTE_STOP_WAKE, params: ComputeStopWakePayload): HandlerResult<ComputeStopWakePayload> {
    try {
      const { config } = params;
      const wanted = config.stop_direct_message_wake_probability;
      const probability =
        params.chat_type === 'private' && config.enable_stop_direct_message_wake && Number.isFinite(wanted) ? Math.min(1, Math.max(0, wanted)) : 0;
      return [EventDecision.SUCCESS, { ...params, probability }];
    } catch (error) {
      return passAfterFailure(this.logger, 'compute_stop_wake_default', params, error);
    }
  }
}

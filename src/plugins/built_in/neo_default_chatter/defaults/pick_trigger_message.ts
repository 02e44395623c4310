import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { PickTriggerMessagePayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/** Default of `:pick_trigger_message`: the last unread, else `current_message`, else the last of `history`, else null. */
@eventHandler({ name: 'pick_trigger_message_default', subscribe: [NdfcEvent.PICK_TRIGGER_MESSAGE], weight: 0 })
export class PickTriggerMessageDefaultHandler extends BaseEventHandler<typeof NdfcEvent.PICK_TRIGGER_MESSAGE> {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {
    super();
  }

  execute(_event: typeof NdfcEvent.PICK_TRIGGER_MESSAGE, params: PickTriggerMessagePayload): HandlerResult<PickTriggerMessagePayload> {
    try {
      const trigger = params.unreads.at(-1) ?? params.current_message ?? params.history.at(-1) ?? null;
      return [EventDecision.SUCCESS, { ...params, trigger }];
    } catch (error) {
      return passAfterFailure(this.logger, 'pick_trigger_message_default', params, error);
    }
  }
}

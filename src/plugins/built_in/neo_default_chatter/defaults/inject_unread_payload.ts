import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { InjectUnreadPayloadPayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/**
 * Default of `:inject_unread_payload`: unless `skip`, appends `formatted_text` as a user
 * payload to `response` (the conversation's request), changing it in place. Empty
 * text adds nothing. The text goes in as text also with `native_multimodal`: moonglass
 * messages carry their media already described in `processedPlainText`.
 */
@eventHandler({ name: 'inject_unread_payload_default', subscribe: [NdfcEvent.INJECT_UNREAD_PAYLOAD], weight: 0 })
export class InjectUnreadPayloadDefaultHandler extends BaseEventHandler<typeof NdfcEvent.INJECT_UNREAD_PAYLOAD> {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {
    super();
  }

  execute(_event: typeof NdfcEvent.INJECT_UNREAD_PAYLOAD, params: InjectUnreadPayloadPayload): HandlerResult<InjectUnreadPayloadPayload> {
    try {
      if (params.skip || params.formatted_text === '') return [EventDecision.PASS, params];
      params.response.addPayload({ role: 'user', content: params.formatted_text });
      return [EventDecision.SUCCESS, params];
    } catch (error) {
      return passAfterFailure(this.logger, 'inject_unread_payload_default', params, error);
    }
  }
}

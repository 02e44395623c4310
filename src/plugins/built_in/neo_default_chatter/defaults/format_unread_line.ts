import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { FormatUnreadLinePayload } from '../events/ndfc-payloads.js';
import { formatMessageLine } from './format-message-line.js';
import { passAfterFailure } from './handler-failure.js';

/**
 * Default of `:format_unread_line`: `【HH:MM】<card or name> [<sender id>]： <text>` into
 * `formatted_line`. `time_format` is a strftime subset in local time (`%Y %m %d %H %M %S`).
 */
@eventHandler({ name: 'format_unread_line_default', subscribe: [NdfcEvent.FORMAT_UNREAD_LINE], weight: 0 })
export class FormatUnreadLineDefaultHandler extends BaseEventHandler<typeof NdfcEvent.FORMAT_UNREAD_LINE> {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {
    super();
  }

  execute(_event: typeof NdfcEvent.FORMAT_UNREAD_LINE, params: FormatUnreadLinePayload): HandlerResult<FormatUnreadLinePayload> {
    try {
      return [EventDecision.SUCCESS, { ...params, formatted_line: formatMessageLine(params.message, params.time_format) }];
    } catch (error) {
      return passAfterFailure(this.logger, 'format_unread_line_default', params, error);
    }
  }
}

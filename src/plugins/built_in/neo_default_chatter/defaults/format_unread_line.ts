import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type ChatRuntime, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { FormatUnreadLinePayload } from '../events/ndfc-payloads.js';
import { formatMessageLine } from './format-message-line.js';
import { passAfterFailure } from './handler-failure.js';
import { messageLineContext } from './message-line-context.js';

/**
 * Default of `:format_unread_line`: `【HH:MM】<card or name>（用户 <sender id>，消息 <message id>）： <text>`
 * into `formatted_line`. `time_format` is a strftime subset (`%Y %m %d %H %M %S %z`) in the
 * prompt's zone (`bot.toml [bot] timezone`); a message from another day gets its date first.
 * Mentions given as bare ids show the person's name.
 */
@eventHandler({ name: 'format_unread_line_default', subscribe: [NdfcEvent.FORMAT_UNREAD_LINE], weight: 0 })
export class FormatUnreadLineDefaultHandler extends BaseEventHandler<typeof NdfcEvent.FORMAT_UNREAD_LINE> {
  constructor(
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
  ) {
    super();
  }

  execute(_event: typeof NdfcEvent.FORMAT_UNREAD_LINE, params: FormatUnreadLinePayload): HandlerResult<FormatUnreadLinePayload> {
    try {
      const context = messageLineContext(this.runtime, params.stream_id, [params.message]);
      return [EventDecision.SUCCESS, { ...params, formatted_line: formatMessageLine(params.message, params.time_format, context) }];
    } catch (error) {
      return passAfterFailure(this.logger, 'format_unread_line_default', params, error);
    }
  }
}

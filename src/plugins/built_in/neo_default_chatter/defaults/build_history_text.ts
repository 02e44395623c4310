import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type ChatRuntime, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { BuildHistoryTextPayload } from '../events/ndfc-payloads.js';
import { formatMessageLine } from './format-message-line.js';
import { passAfterFailure } from './handler-failure.js';
import { messageLineContext } from './message-line-context.js';

/** Default of `:build_history_text`: one line per message of `chat_stream.history`, formatted like unread lines (`%H:%M`). */
@eventHandler({ name: 'build_history_text_default', subscribe: [NdfcEvent.BUILD_HISTORY_TEXT], weight: 0 })
export class BuildHistoryTextDefaultHandler extends BaseEventHandler<typeof NdfcEvent.BUILD_HISTORY_TEXT> {
  constructor(
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
  ) {
    super();
  }

  execute(_event: typeof NdfcEvent.BUILD_HISTORY_TEXT, params: BuildHistoryTextPayload): HandlerResult<BuildHistoryTextPayload> {
    try {
      const { history } = params.chat_stream;
      const context = messageLineContext(this.runtime, params.stream_id, history);
      return [EventDecision.SUCCESS, { ...params, lines: history.map((message) => formatMessageLine(message, '%H:%M', context)) }];
    } catch (error) {
      return passAfterFailure(this.logger, 'build_history_text_default', params, error);
    }
  }
}

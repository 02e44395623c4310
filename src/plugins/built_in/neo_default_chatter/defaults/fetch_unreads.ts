import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type ChatRuntime, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { FetchUnreadsPayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/** Default of `:fetch_unreads`: the stream's unread messages, oldest first, into `messages`. */
@eventHandler({ name: 'fetch_unreads_default', subscribe: [NdfcEvent.FETCH_UNREADS], weight: 0 })
export class FetchUnreadsDefaultHandler extends BaseEventHandler<typeof NdfcEvent.FETCH_UNREADS> {
  constructor(
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {
    super();
  }

  execute(_event: typeof NdfcEvent.FETCH_UNREADS, params: FetchUnreadsPayload): HandlerResult<FetchUnreadsPayload> {
    try {
      return [EventDecision.SUCCESS, { ...params, messages: this.runtime.streams.fetchUnreads(params.stream_id) }];
    } catch (error) {
      return passAfterFailure(this.logger, 'fetch_unreads_default', params, error);
    }
  }
}

import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type ChatRuntime, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { FlushUnreadsPayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/** Default of `:flush_unreads`: moves exactly `messages` from unread to history; `flushed_count` says how many moved. */
@eventHandler({ name: 'flush_unreads_default', subscribe: [NdfcEvent.FLUSH_UNREADS], weight: 0 })
export class FlushUnreadsDefaultHandler extends BaseEventHandler<typeof NdfcEvent.FLUSH_UNREADS> {
  constructor(
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {
    super();
  }

  execute(_event: typeof NdfcEvent.FLUSH_UNREADS, params: FlushUnreadsPayload): HandlerResult<FlushUnreadsPayload> {
    try {
      return [EventDecision.SUCCESS, { ...params, flushed_count: this.runtime.streams.flushUnreads(params.stream_id, params.messages) }];
    } catch (error) {
      return passAfterFailure(this.logger, 'flush_unreads_default', params, error);
    }
  }
}

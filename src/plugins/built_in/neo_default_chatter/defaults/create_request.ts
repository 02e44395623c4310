import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type ChatRuntime, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { CreateRequestPayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/**
 * Default of `:create_request`: a model request for `task_name`, named `request_name` (or the
 * task's name when empty), tagged with the stream, into `request`. `with_reminder` is not
 * read: moonglass requests carry no reminder; the session builds its prompts itself.
 */
@eventHandler({ name: 'create_request_default', subscribe: [NdfcEvent.CREATE_REQUEST], weight: 0 })
export class CreateRequestDefaultHandler extends BaseEventHandler<typeof NdfcEvent.CREATE_REQUEST> {
  constructor(
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {
    super();
  }

  execute(_event: typeof NdfcEvent.CREATE_REQUEST, params: CreateRequestPayload): HandlerResult<CreateRequestPayload> {
    try {
      const request = this.runtime.createRequest(params.stream_id, params.task_name, params.request_name || params.task_name);
      return [EventDecision.SUCCESS, { ...params, request }];
    } catch (error) {
      return passAfterFailure(this.logger, 'create_request_default', params, error);
    }
  }
}

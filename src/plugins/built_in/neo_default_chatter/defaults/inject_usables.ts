import {
  BaseEventHandler,
  EventDecision,
  eventHandler,
  inject,
  TOKENS,
  type ChatRuntime,
  type HandlerResult,
  type Logger,
  type ModelToolDeclaration,
} from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { InjectUsablesPayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/**
 * Default of `:inject_usables`: every action and tool offered in the stream into
 * `tool_registry`, and their declarations, then those of `extra_tools`, on `request.tools`
 * (the session adds the `extra_tools` to the registry).
 */
@eventHandler({ name: 'inject_usables_default', subscribe: [NdfcEvent.INJECT_USABLES], weight: 0 })
export class InjectUsablesDefaultHandler extends BaseEventHandler<typeof NdfcEvent.INJECT_USABLES> {
  constructor(
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {
    super();
  }

  async execute(_event: typeof NdfcEvent.INJECT_USABLES, params: InjectUsablesPayload): Promise<HandlerResult<InjectUsablesPayload>> {
    try {
      const usables = await this.runtime.usablesFor(params.stream_id);
      const declarations: ModelToolDeclaration[] = usables.declarations();
      for (const extra of params.extra_tools) {
        if (!declarations.some((declaration) => declaration.function.name === extra.declaration.function.name)) declarations.push(extra.declaration);
      }
      params.request.tools = declarations;
      return [EventDecision.SUCCESS, { ...params, tool_registry: usables }];
    } catch (error) {
      return passAfterFailure(this.logger, 'inject_usables_default', params, error);
    }
  }
}

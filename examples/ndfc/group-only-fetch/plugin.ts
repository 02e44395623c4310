import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, ToolPlugin, type ChatRuntime, type ComponentClass, type EventParams } from 'moonglass';
import { NdfcEvent } from 'moonglass/ndfc';

@eventHandler({ name: 'group_only_fetch', subscribe: ['neo_default_chatter:fetch_unreads'], weight: 200 })
export class GroupOnlyFetch extends BaseEventHandler<typeof NdfcEvent.FETCH_UNREADS> {
  constructor(@inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime) {
    super();
  }

  execute(_event: typeof NdfcEvent.FETCH_UNREADS, params: EventParams<typeof NdfcEvent.FETCH_UNREADS>) {
    const stream = this.runtime.streams.activateStream(params.stream_id);
    if (stream?.chatType !== 'group') return [EventDecision.PASS, params] as const; // not a group: the default runs
    // A group's own source: here, only messages that mention the bot.
    params.messages = this.runtime.streams.fetchUnreads(params.stream_id).filter((message) => message.extra.mentions_bot === true);
    return [EventDecision.STOP, params] as const;
  }
}

export class GroupOnlyFetchPlugin extends ToolPlugin {
  override components(): ComponentClass[] {
    return [GroupOnlyFetch];
  }
}

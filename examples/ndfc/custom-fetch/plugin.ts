import { BaseEventHandler, EventDecision, eventHandler, ToolPlugin, type ComponentClass, type EventParams } from 'moonglass';
import { NdfcEvent } from 'moonglass/ndfc';

/** Stands for an external message source; here it is down, so the default fetch runs. */
async function fetchFromExternal(_streamId: string): Promise<never> {
  throw new Error('the external source is unreachable');
}

@eventHandler({ name: 'my_custom_fetch', subscribe: [NdfcEvent.FETCH_UNREADS], weight: 200 })
export class MyCustomFetch extends BaseEventHandler<typeof NdfcEvent.FETCH_UNREADS> {
  async execute(_event: typeof NdfcEvent.FETCH_UNREADS, params: EventParams<typeof NdfcEvent.FETCH_UNREADS>) {
    try {
      params.messages = await fetchFromExternal(params.stream_id);
      return [EventDecision.STOP, params] as const; // replace the default
    } catch {
      return [EventDecision.PASS, params] as const; // fall back to the default
    }
  }
}

export class CustomFetchPlugin extends ToolPlugin {
  override components(): ComponentClass[] {
    return [MyCustomFetch];
  }
}

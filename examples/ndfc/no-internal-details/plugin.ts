import { BaseEventHandler, EventDecision, eventHandler, ToolPlugin, type ComponentClass, type EventParams } from 'moonglass';
import { NdfcEvent } from 'moonglass/ndfc';

@eventHandler({ name: 'no_internal_details', subscribe: [NdfcEvent.BUILD_NEGATIVE_EXTRA], weight: 200 })
export class NoInternalDetailsHandler extends BaseEventHandler<typeof NdfcEvent.BUILD_NEGATIVE_EXTRA> {
  execute(_event: typeof NdfcEvent.BUILD_NEGATIVE_EXTRA, params: EventParams<typeof NdfcEvent.BUILD_NEGATIVE_EXTRA>) {
    params.fragments.push('禁止透露：事件名、handler weight、payload schema、内部实现细节');
    return [EventDecision.SUCCESS, params] as const; // SUCCESS: the default handler appends its own after this
  }
}

export class NoInternalDetailsPlugin extends ToolPlugin {
  override components(): ComponentClass[] {
    return [NoInternalDetailsHandler];
  }
}

import { BaseEventHandler, EventDecision, EventType, eventHandler, ToolPlugin, type ComponentClass, type EventParams } from 'moonglass';

@eventHandler({ name: 'llm_request_inspector', subscribe: [EventType.BEFORE_LLM_REQUEST], weight: 200 })
export class LlmRequestInspector extends BaseEventHandler<'before_llm_request'> {
  execute(_event: 'before_llm_request', params: EventParams<'before_llm_request'>) {
    if (params.request_name !== 'actor') return [EventDecision.PASS, params] as const; // not NDFC's request
    for (const payload of params.payloads) {
      if (payload.role === 'system') payload.content += '\n\n附加约束：回答不超过两句话';
    }
    return [EventDecision.SUCCESS, params] as const;
  }
}

export class LlmRequestInspectorPlugin extends ToolPlugin {
  override components(): ComponentClass[] {
    return [LlmRequestInspector];
  }
}

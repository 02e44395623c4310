import { BaseEventHandler, EventDecision, EventType, eventHandler, ToolPlugin, type ComponentClass, type EventParams } from 'moonglass';

@eventHandler({ name: 'my_system_prompt_ext', subscribe: [EventType.ON_PROMPT_BUILD], weight: 200 })
export class MySystemPromptExt extends BaseEventHandler<'on_prompt_build'> {
  execute(_event: 'on_prompt_build', params: EventParams<'on_prompt_build'>) {
    if (!params.name.startsWith('neo_default_chatter:')) return [EventDecision.PASS, params] as const; // not NDFC's prompt
    params.values['extra_constraints'] = '不要提及内部实现细节';
    return [EventDecision.SUCCESS, params] as const;
  }
}

export class SystemPromptConstraintPlugin extends ToolPlugin {
  override components(): ComponentClass[] {
    return [MySystemPromptExt];
  }
}

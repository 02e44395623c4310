import { BaseEventHandler, EventDecision, eventHandler, ToolPlugin, type ComponentClass, type EventParams } from 'moonglass';
import { NdfcEvent } from 'moonglass/ndfc';

/** Transitions seen, per stream (kept on the plugin module: the handler instance is built anew when the plugin reloads). */
export const transitionsSeen = new Map<string, number>();

@eventHandler({ name: 'turn_auditor', subscribe: [NdfcEvent.SESSION_TRANSITION], weight: 1000 })
export class TurnAuditor extends BaseEventHandler<typeof NdfcEvent.SESSION_TRANSITION> {
  execute(_event: typeof NdfcEvent.SESSION_TRANSITION, params: EventParams<typeof NdfcEvent.SESSION_TRANSITION>) {
    transitionsSeen.set(params.stream_id, (transitionsSeen.get(params.stream_id) ?? 0) + 1);
    return [EventDecision.PASS, params] as const;
  }
}

export class TurnAuditorPlugin extends ToolPlugin {
  override components(): ComponentClass[] {
    return [TurnAuditor];
  }
}

import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { SessionTransitionPayload } from '../events/ndfc-payloads.js';

/** Default of `:session_transition`: one debug line per transition; observation only (PASS). */
@eventHandler({ name: 'session_transition_default', subscribe: [NdfcEvent.SESSION_TRANSITION], weight: 0 })
export class SessionTransitionDefaultHandler extends BaseEventHandler<typeof NdfcEvent.SESSION_TRANSITION> {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {
    super();
  }

  execute(_event: typeof NdfcEvent.SESSION_TRANSITION, params: SessionTransitionPayload): HandlerResult<SessionTransitionPayload> {
    try {
      this.logger.debug(
        { stream_id: params.stream_id, from_phase: params.from_phase, to_phase: params.to_phase, turn_result: params.turn_result?.kind ?? null },
        `NDFC session ${params.from_phase} -> ${params.to_phase}`,
      );
    } catch {
      // A logger that throws must not turn an observation into a failure; there is nowhere left to report it.
    }
    return [EventDecision.PASS, params];
  }
}

import { EventDecision } from '../kernel/event-bus/event-decision.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';

/** NDFC's transition event (a public event of the built-in default chatter). */
const SESSION_TRANSITION = 'neo_default_chatter:session_transition';

/** The latest conversation phase of each stream (NDFC's WAIT_USER, MODEL_TURN …), watched on the bus. */
export class PhaseTracker {
  readonly #phases = new Map<string, { phase: string; since: number }>();
  readonly #unsubscribe: () => void;

  constructor(bus: EventBus, now: () => number) {
    this.#unsubscribe = bus.subscribe(
      SESSION_TRANSITION as never,
      ((_event: string, params: Record<string, unknown>) => {
        const streamId = params['stream_id'];
        const phase = params['to_phase'];
        if (typeof streamId === 'string' && typeof phase === 'string') this.#phases.set(streamId, { phase, since: now() });
        return [EventDecision.PASS, params];
      }) as never,
      { weight: -1_000_000, label: 'moonglass:console_phase_tracker', owner: 'moonglass', timeout: 0 },
    );
  }

  phaseOf(streamId: string): { phase: string; since: number } | undefined {
    return this.#phases.get(streamId);
  }

  stop(): void {
    this.#unsubscribe();
  }
}

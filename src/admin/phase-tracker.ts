import { EventDecision } from '../kernel/event-bus/event-decision.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';

/** NDFC's transition event (a public event of the built-in default chatter). */
const SESSION_TRANSITION = 'neo_default_chatter:session_transition';

/** Streams whose phase is kept; the least recently changed go first (the console shows recent ones). */
const MAX_TRACKED_STREAMS = 2_000;

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
        if (typeof streamId === 'string' && typeof phase === 'string') this.#note(streamId, { phase, since: now() });
        return [EventDecision.PASS, params];
      }) as never,
      { weight: -1_000_000, label: 'moonglass:console_phase_tracker', owner: 'moonglass', timeout: 0 },
    );
  }

  /** Keeps the map in order of change, bounded: a bot that talked in many chats does not keep every one. */
  #note(streamId: string, entry: { phase: string; since: number }): void {
    this.#phases.delete(streamId);
    this.#phases.set(streamId, entry);
    if (this.#phases.size > MAX_TRACKED_STREAMS) this.#phases.delete(this.#phases.keys().next().value!);
  }

  phaseOf(streamId: string): { phase: string; since: number } | undefined {
    return this.#phases.get(streamId);
  }

  stop(): void {
    this.#unsubscribe();
  }
}

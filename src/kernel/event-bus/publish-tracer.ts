import type { EventDecision } from './event-decision.js';

/** What one handler did in one publish. */
export interface HandlerTrace {
  label: string;
  /** The plugin that owns the subscription. */
  owner: string | undefined;
  weight: number;
  /** Its decision, or why it counted as PASS (`threw`, `invalid result`), or `not reached` (a STOP above it). */
  outcome: EventDecision | 'threw' | 'invalid result' | 'not reached';
  durationMs: number;
}

/** One publish as a tracer sees it, when it has finished. */
export interface PublishTrace {
  event: string;
  /** Epoch milliseconds. */
  startedAt: number;
  durationMs: number;
  decision: EventDecision;
  /** In run order. */
  handlers: HandlerTrace[];
}

/**
 * Watches every publish of a bus (`bus.setTracer`): which handlers ran, in what order, with
 * which outcome and how long. Tracing wraps each handler of each publish, so it costs a little
 * per handler; a bus without a tracer pays one check per publish.
 */
export interface PublishTracer {
  /** Milliseconds, for start times and durations. */
  now(): number;
  /** A finished publish, with the params it was published with (read them, do not keep them). */
  record(trace: PublishTrace, params: Readonly<Record<string, unknown>>): void;
}

import type { ChatterResult, StepData } from './chatter-result.js';

/**
 * `on_chatter_step`: published before the loop steps a chatter. Set `continue` to false to skip
 * this tick; only `continue` is read back.
 */
export interface OnChatterStepPayload {
  /** The stream whose chatter is about to step. */
  stream_id: string;
  /** The name of the stream's chatter (the last part of its signature), or `'none'` when it has none. */
  chatter_name: string;
  /**
   * Counts this stream's steps, this one and skipped ones included, from 1; it starts again
   * when the stream is evicted for being idle and comes back.
   */
  tick: number;
  /** How many unread messages the stream holds now. */
  unread_count: number;
  /** What woke the chatter: `message`, `timer`, `sub_agent` ..., or `new` for a fresh run. */
  source: string;
  /**
   * Defaults to true; a handler that sets it to false skips this step (a resume other than
   * `message`/`timer` is kept for the next one).
   */
  continue: boolean;
}

/** `after_chatter_step`: published after each step, for observers; changes are ignored. */
export interface AfterChatterStepPayload {
  /** The stream whose chatter stepped. Observation only: changes are ignored. */
  stream_id: string;
  /** The name of the stream's chatter (the last part of its signature). */
  chatter_name: string;
  /** `wait`, `success`, `failure` or `stop`: the kind of `result`. */
  result_type: ChatterResult['kind'];
  /**
   * What the step yielded; a step that threw or timed out shows as a {@link Failure}, a finished
   * run as a {@link Success}. The driver has already acted on it.
   */
  result: ChatterResult;
  /** The result's `stepData` (NDFC reports `step_scope` and `used_tools`). */
  step_data: StepData;
  /** The names in `step_data.used_tools`, as strings; `[]` when the chatter reported none. */
  used_tools: string[];
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    /** Before the loop steps a stream's chatter; a handler may veto the step. */
    on_chatter_step: OnChatterStepPayload;
    /** After a chatter step and its result were applied; for observers. */
    after_chatter_step: AfterChatterStepPayload;
  }
}

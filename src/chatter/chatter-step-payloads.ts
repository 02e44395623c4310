import type { ChatterResult, StepData } from './chatter-result.js';

/** `on_chatter_step`: published before the loop steps a chatter. Set `continue` to false to skip this tick. */
export interface OnChatterStepPayload {
  stream_id: string;
  chatter_name: string;
  tick: number;
  unread_count: number;
  /** What woke the chatter: `message`, `timer`, `sub_agent` ..., or `new` for a fresh run. */
  source: string;
  continue: boolean;
}

/** `after_chatter_step`: published after each step, for observers. */
export interface AfterChatterStepPayload {
  stream_id: string;
  chatter_name: string;
  result_type: ChatterResult['kind'];
  result: ChatterResult;
  step_data: StepData;
  used_tools: string[];
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    on_chatter_step: OnChatterStepPayload;
    after_chatter_step: AfterChatterStepPayload;
  }
}

import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { Clock } from '../kernel/time/clock.js';
import type { ToolCall } from '../llm/tool-call.js';
import { ToolExecutionResult } from '../tools/tool-execution-result.js';
import './tool-call-payloads.js';
import type { UsableCall, UsableSet } from './usables.js';

/** One finished call, in the order the model made it. */
export interface ToolCallOutcome {
  /** The model's call as it made it. */
  call: ToolCall;
  /** The signature of the tool or action that ran; undefined when the name matched nothing. */
  signature: string | undefined;
  /** `tool` or `action`; undefined when the name matched nothing (the result is then a failure). */
  kind: 'tool' | 'action' | undefined;
  /** What the call produced; a failure for an unknown name or a call a `before_tool_call` handler skipped. */
  result: ToolExecutionResult;
}

export interface RunToolCallsOptions {
  calls: readonly ToolCall[];
  usables: UsableSet;
  bus: EventBus;
  clock: Clock;
  streamId: string;
  signal: AbortSignal;
  capabilities: ReadonlySet<string>;
  /** Told about every finished call (the host writes them to the tool-call log). */
  onOutcome?: (outcome: ToolCallOutcome, startedAt: number, durationMs: number) => void;
}

/**
 * Runs the model's calls one after another (so sends stay in order) and returns the results
 * in call order. Each call is framed by `before_tool_call` (a handler may change the args or
 * skip the call) and `after_tool_call`. An unknown name becomes a failure the model reads.
 */
export async function runToolCalls(options: RunToolCallsOptions): Promise<ToolCallOutcome[]> {
  const outcomes: ToolCallOutcome[] = [];
  for (const call of options.calls) {
    const usable = options.usables.get(call.name);
    if (usable === undefined) {
      outcomes.push({ call, signature: undefined, kind: undefined, result: ToolExecutionResult.fail(call.name, `未知的工具 ${call.name}，可用：${options.usables.names().join('、')}`) });
      continue;
    }
    const before = await options.bus.publish('before_tool_call', {
      signature: usable.signature,
      stream_id: options.streamId,
      call_id: call.id,
      tool_name: call.name,
      args: call.args,
      skip: false,
      skip_reason: '',
    });
    const started = options.clock.now();
    const usableCall: UsableCall = { streamId: options.streamId, callId: call.id, signal: options.signal, capabilities: options.capabilities };
    const result = before.params.skip === true
      ? ToolExecutionResult.fail(call.name, before.params.skip_reason || '调用被拦截')
      : await usable.run(before.params.args ?? call.args, usableCall);
    await options.bus.publish('after_tool_call', {
      signature: usable.signature,
      stream_id: options.streamId,
      call_id: call.id,
      tool_name: call.name,
      args: before.params.args ?? call.args,
      success: result.success,
      observation: result.observation,
      error_message: result.errorMessage,
      duration_ms: options.clock.now() - started,
    });
    const outcome: ToolCallOutcome = { call, signature: usable.signature, kind: usable.kind, result };
    outcomes.push(outcome);
    options.onOutcome?.(outcome, started, options.clock.now() - started);
  }
  return outcomes;
}

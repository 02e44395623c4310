import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type ChatRuntime, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { RunToolCallPayload, ToolCallResult } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/**
 * Default of `:run_tool_call`: runs `calls` in order through the runtime (before/after_tool_call
 * around each), adds each result to `response` (the observation, or `失败：<reason>`), and fills
 * `results` with `[success, kind === 'tool']`: a tool's result needs a follow-up model turn,
 * an action's does not. No timeout (`timeout: 0`): tools may orchestrate model calls for far
 * longer than the bus default of 30 s, and a cancelled run would lose every result.
 */
@eventHandler({ name: 'run_tool_call_default', subscribe: [NdfcEvent.RUN_TOOL_CALL], weight: 0, timeout: 0 })
export class RunToolCallDefaultHandler extends BaseEventHandler<typeof NdfcEvent.RUN_TOOL_CALL> {
  constructor(
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {
    super();
  }

  async execute(_event: typeof NdfcEvent.RUN_TOOL_CALL, params: RunToolCallPayload): Promise<HandlerResult<RunToolCallPayload>> {
    try {
      const outcomes = await this.runtime.runToolCalls(params.stream_id, params.calls, params.usable_map);
      const results = outcomes.map(({ call, kind, result }): ToolCallResult => {
        params.response.addToolResult(call.id, call.name, result.success ? result.observation : `失败：${result.errorMessage}`);
        return [result.success, kind === 'tool'];
      });
      return [EventDecision.SUCCESS, { ...params, results }];
    } catch (error) {
      return passAfterFailure(this.logger, 'run_tool_call_default', params, error);
    }
  }
}

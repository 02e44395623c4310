import type { StreamApi } from '../chat/stream-api.js';
import type { ToolExecutionResult } from '../tools/tool-execution-result.js';

/** What an action gets for one call. */
export interface ActionContext {
  /** The stream the model called the action in. */
  streamId: string;
  /** The model's id for this call. */
  callId: string;
  /** Aborts when the turn is interrupted. */
  signal: AbortSignal;
  /** Reading and sending in the stream. */
  streams: StreamApi;
}

/**
 * Base of action components: abilities a chatter offers the model to act in the chat
 * (`send_text`, `pass_and_wait` ...). Decorate the subclass with `@action(name, {description,
 * parameters})`; the arguments arrive validated against `parameters`.
 */
export abstract class BaseAction {
  /**
   * Runs one call with validated `args`; resolve to `ToolExecutionResult.ok(...)` or `.fail(...)`. A throw becomes a failed result the
   * model reads.
   */
  abstract execute(args: Record<string, unknown>, context: ActionContext): Promise<ToolExecutionResult>;
}

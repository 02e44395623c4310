import type { Clock } from '../kernel/time/clock.js';
import type { ToolContext } from './tool-context.js';
import type { ToolDefinition } from './tool-definition.js';
import type { ToolInvocation } from './tool-invocation.js';

/** How one run of a tool body ended; the first of these to happen wins. */
export type ToolCallOutcome =
  | { type: 'returned'; value: unknown }
  | { type: 'threw'; error: unknown }
  | { type: 'timed_out' }
  | { type: 'cancelled' };

/**
 * Runs `definition.execute` under its `timeoutMs` on `clock`, with a signal of its own that
 * aborts on the timeout or when the caller's `context.signal` aborts. Never rejects. Once
 * the outcome is decided, whatever the tool does later is ignored (and a late rejection is
 * swallowed). When the caller's signal has already aborted, the tool is not called.
 */
export function runToolCall(clock: Clock, definition: ToolDefinition, invocation: ToolInvocation, context: ToolContext): Promise<ToolCallOutcome> {
  return new Promise<ToolCallOutcome>((resolve) => {
    const callerSignal = context.signal;
    if (callerSignal.aborted) {
      resolve({ type: 'cancelled' });
      return;
    }
    const controller = new AbortController();
    let settled = false;
    const settle = (outcome: ToolCallOutcome, abortReason?: unknown): void => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      callerSignal.removeEventListener('abort', onCallerAbort);
      resolve(outcome);
      // Settled first: a tool that rejects from its abort listener must not win the race.
      if (abortReason !== undefined) controller.abort(abortReason);
    };
    const onCallerAbort = (): void => settle({ type: 'cancelled' }, callerSignal.reason ?? new DOMException('调用已取消', 'AbortError'));
    const timer = clock.setTimeout(
      () => settle({ type: 'timed_out' }, new DOMException(`执行超过 ${definition.timeoutMs} 毫秒`, 'TimeoutError')),
      definition.timeoutMs,
    );
    callerSignal.addEventListener('abort', onCallerAbort, { once: true });
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(definition.execute(invocation, { ...context, signal: controller.signal }));
    } catch (error) {
      settle({ type: 'threw', error });
      return;
    }
    pending.then(
      (value) => settle({ type: 'returned', value }),
      (error: unknown) => settle({ type: 'threw', error }),
    );
  });
}

import { describeError } from '../errors/describe-error.js';
import type { DeadlineScheduler, Watched } from './deadline-scheduler.js';
import { EventDecision } from './event-decision.js';
import { isAcceptableResult, judgeHandlerResult } from './handler-result.js';
import type { ParamsCloner } from './params-cloner.js';
import type { Subscription } from './subscription.js';

type Params = Record<string, unknown>;

/** What a run needs from its bus. */
export interface RunContext {
  readonly scheduler: DeadlineScheduler;
  /** Seconds for handlers without their own timeout; `<= 0` means none. Read on every call. */
  defaultTimeoutSeconds: number;
  warn(subscription: Subscription, problem: string, fields?: Record<string, unknown>): void;
}

/** Milliseconds `subscription` may take under `context`; 0 means no limit. */
export function handlerTimeoutMs(context: RunContext, subscription: Subscription): number {
  const seconds = subscription.timeout ?? context.defaultTimeoutSeconds;
  return seconds > 0 ? seconds * 1000 : 0;
}

/** The state of one chain at one moment; a timed-out run hands it to a fresh run. */
interface ChainState {
  readonly context: RunContext;
  readonly eventName: string;
  readonly subscriptions: readonly Subscription[];
  readonly expectedKeys: readonly string[];
  readonly clone: ParamsCloner;
  readonly original: Params;
  readonly resolve: (result: { decision: EventDecision; params: Params }) => void;
  current: Params;
  index: number;
  decision: EventDecision;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

type Resolve = (result: { decision: EventDecision; params: Params }) => void;

// `new Promise(captureResolve)` hands out the resolver without allocating a closure per
// publish. It matters under tsx, whose esbuild `keepNames` wraps every closure it creates in a
// name-setting helper that cost more than the rest of a publish (seen with --cpu-prof).
let capturedResolve: Resolve | undefined;
function captureResolve(resolve: Resolve): void {
  capturedResolve = resolve;
}

/**
 * One publish working through its handlers. A handler's promise is awaited directly (no
 * wrapper promise, no `Promise.race`); its deadline is watched by the bus's scheduler. When
 * the deadline passes first, the scheduler retires this run and the chain continues in a
 * fresh run from the next handler, so a late settlement of the abandoned handler reaches an
 * await nobody listens to.
 */
export class PublishRun implements Watched {
  deadline = 0;
  watchIndex = -1;
  readonly #state: ChainState;
  #waitingOn: Subscription | undefined;
  #retired = false;

  constructor(state: ChainState) {
    this.#state = state;
  }

  static start(
    context: RunContext,
    eventName: string,
    subscriptions: readonly Subscription[],
    params: Params,
    expectedKeys: readonly string[],
    clone: ParamsCloner,
  ): Promise<{ decision: EventDecision; params: Params }> {
    const promise = new Promise(captureResolve);
    new PublishRun({
      context,
      eventName,
      subscriptions,
      expectedKeys,
      clone,
      original: params,
      resolve: capturedResolve!,
      current: params,
      index: 0,
      decision: EventDecision.SUCCESS,
    }).#run();
    return promise;
  }

  /** Called by the scheduler when the awaited handler's deadline passed. */
  expire(): void {
    const subscription = this.#waitingOn;
    if (subscription === undefined || this.#retired) return;
    this.#retired = true;
    const state = this.#state;
    state.context.warn(subscription, `timed out after ${handlerTimeoutMs(state.context, subscription) / 1000} s; counts as PASS`);
    state.decision = EventDecision.PASS;
    state.index += 1;
    new PublishRun(state).#run();
  }

  /** Runs the chain and resolves the publish; never rejects (fail-open to the end). */
  async #run(): Promise<void> {
    const state = this.#state;
    const { subscriptions, context, eventName, expectedKeys, clone } = state;
    // Hot path: locals, no allocation besides the params copy; state is written back before
    // each await so that expire() can hand the chain to a fresh run.
    let { index, current, decision } = state;
    try {
    while (index < subscriptions.length) {
      const subscription = subscriptions[index]!;
      let result: unknown;
      try {
        result = subscription.handler(eventName, clone(current));
        if (isThenable(result)) {
          state.index = index;
          state.current = current;
          state.decision = decision;
          const timeoutMs = handlerTimeoutMs(context, subscription);
          if (timeoutMs > 0) {
            this.#waitingOn = subscription;
            context.scheduler.watch(this, timeoutMs);
          }
          result = await result;
          if (this.#retired) return; // timed out meanwhile: a fresh run carries the chain on
          if (timeoutMs > 0) this.#stopWatching();
        }
      } catch (error) {
        if (this.#retired) return;
        this.#stopWatching();
        decision = this.#pass(subscription, 'threw; counts as PASS', { error: describeError(error) });
        index += 1;
        continue;
      }
      index += 1;
      if (!isAcceptableResult(result, expectedKeys)) {
        decision = this.#reject(subscription, result);
        continue;
      }
      decision = (result as readonly [EventDecision, Params])[0];
      if (decision === EventDecision.PASS) continue;
      current = (result as readonly [EventDecision, Params])[1];
      if (decision === EventDecision.STOP) break;
    }
    } catch (error) {
      // Only a failure of the bus's own code (a logger that throws, say) lands here.
      if (this.#retired) return;
      decision = EventDecision.PASS;
      context.warn(subscriptions[Math.min(index, subscriptions.length - 1)]!, 'broke the event bus itself; the chain ends here', {
        error: describeError(error),
      });
    }
    if (this.#retired) return;
    state.resolve({ decision, params: current === state.original ? clone(current) : current });
  }

  #stopWatching(): void {
    if (this.#waitingOn === undefined) return;
    this.#waitingOn = undefined;
    this.#state.context.scheduler.unwatch(this);
  }

  /** Logs why `result` was refused; the handler counts as PASS. */
  #reject(subscription: Subscription, result: unknown): EventDecision {
    const judged = judgeHandlerResult(result, this.#state.expectedKeys);
    const problem = judged.ok ? 'returned an unusable result' : judged.problem;
    const keys = judged.ok || judged.added === undefined ? {} : { added_keys: judged.added, removed_keys: judged.removed };
    return this.#pass(subscription, `${problem}; counts as PASS`, keys);
  }

  #pass(subscription: Subscription, problem: string, fields: Record<string, unknown>): EventDecision {
    this.#state.context.warn(subscription, problem, fields);
    return EventDecision.PASS;
  }
}

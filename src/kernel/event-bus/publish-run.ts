import { describeError } from '../errors/describe-error.js';
import type { DeadlineScheduler, Watched } from './deadline-scheduler.js';
import { EventDecision } from './event-decision.js';
import { isAcceptableResultFor, judgeHandlerResult } from './handler-result.js';
import type { ParamsCloner } from './params-cloner.js';
import type { ParamsShapeCheck } from './params-shape-check.js';
import type { Subscription } from './subscription.js';

type Params = Record<string, unknown>;

/** What a run needs from its bus. */
export interface RunContext {
  readonly scheduler: DeadlineScheduler;
  /** Seconds for handlers without their own timeout; `<= 0` means none. Read on every call. */
  defaultTimeoutSeconds: number;
  warn(subscription: Subscription, problem: string, fields?: Record<string, unknown>): void;
}

/** What a publish uses for the key set it was published with. */
export interface KeySetTools {
  readonly keys: readonly string[];
  /** The shallow copy each handler gets. */
  readonly clone: ParamsCloner;
  /** The fast first look at each handler's params (see `makeParamsShapeCheck`). */
  readonly check: ParamsShapeCheck;
}

/** Milliseconds `subscription` may take under `context`; 0 means no limit. */
export function handlerTimeoutMs(context: RunContext, subscription: Subscription): number {
  const seconds = subscription.timeout ?? context.defaultTimeoutSeconds;
  return seconds > 0 ? seconds * 1000 : 0;
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
 * wrapper promise, no `Promise.race`); its deadline is watched by the bus's scheduler, the
 * run staying in the scheduler's list from its first timed handler to its end (each timed
 * handler moves the deadline on; nothing is added or removed per handler). When the deadline
 * passes first, the scheduler retires this run and the chain continues in a fresh run from
 * the next handler, so a late settlement of the abandoned handler reaches an await nobody
 * listens to.
 */
export class PublishRun implements Watched {
  deadline = 0;
  watchIndex = -1;
  window = 0;
  readonly #context: RunContext;
  readonly #eventName: string;
  readonly #subscriptions: readonly Subscription[];
  readonly #keySet: KeySetTools;
  readonly #original: Params;
  readonly #resolve: Resolve;
  /** Where the chain stands; written before each await, so that expire() can hand it on. */
  #current: Params;
  #index: number;
  #decision: EventDecision;
  /** The handler being awaited under a deadline; undefined between handlers. */
  #waitingOn: Subscription | undefined;
  #retired = false;

  private constructor(
    context: RunContext,
    eventName: string,
    subscriptions: readonly Subscription[],
    keySet: KeySetTools,
    original: Params,
    resolve: Resolve,
    current: Params,
    index: number,
    decision: EventDecision,
  ) {
    this.#context = context;
    this.#eventName = eventName;
    this.#subscriptions = subscriptions;
    this.#keySet = keySet;
    this.#original = original;
    this.#resolve = resolve;
    this.#current = current;
    this.#index = index;
    this.#decision = decision;
  }

  static start(
    context: RunContext,
    eventName: string,
    subscriptions: readonly Subscription[],
    params: Params,
    keySet: KeySetTools,
  ): Promise<{ decision: EventDecision; params: Params }> {
    const promise = new Promise(captureResolve);
    void new PublishRun(context, eventName, subscriptions, keySet, params, capturedResolve!, params, 0, EventDecision.SUCCESS).#run();
    return promise;
  }

  /** Called by the scheduler when the awaited handler's deadline passed. */
  expire(): void {
    const subscription = this.#waitingOn;
    if (subscription === undefined || this.#retired) return;
    this.#retired = true;
    const context = this.#context;
    context.warn(subscription, `timed out after ${handlerTimeoutMs(context, subscription) / 1000} s; counts as PASS`);
    void new PublishRun(
      context,
      this.#eventName,
      this.#subscriptions,
      this.#keySet,
      this.#original,
      this.#resolve,
      this.#current,
      this.#index + 1,
      EventDecision.PASS,
    ).#run();
  }

  /** Runs the chain and resolves the publish; never rejects (fail-open to the end). */
  async #run(): Promise<void> {
    const subscriptions = this.#subscriptions;
    const context = this.#context;
    const eventName = this.#eventName;
    const { keys: expectedKeys, clone, check } = this.#keySet;
    // Hot path: locals, no allocation besides the params copy; the chain's place is written
    // back before each await so that expire() can hand it to a fresh run.
    let index = this.#index;
    let current = this.#current;
    let decision = this.#decision;
    try {
    while (index < subscriptions.length) {
      const subscription = subscriptions[index]!;
      let result: unknown;
      try {
        result = subscription.handler(eventName, clone(current));
        if (isThenable(result)) {
          this.#index = index;
          this.#current = current;
          const timeoutMs = handlerTimeoutMs(context, subscription);
          if (timeoutMs > 0) {
            this.#waitingOn = subscription;
            context.scheduler.watch(this, timeoutMs);
          } else if (this.watchIndex >= 0) {
            context.scheduler.unwatch(this); // a handler without a limit: no earlier deadline may cut it short
          }
          result = await result;
          if (this.#retired) return; // timed out meanwhile: a fresh run carries the chain on
          this.#waitingOn = undefined;
        }
      } catch (error) {
        if (this.#retired) return;
        this.#waitingOn = undefined;
        decision = this.#pass(subscription, 'threw; counts as PASS', { error: describeError(error) });
        index += 1;
        continue;
      }
      index += 1;
      if (!isAcceptableResultFor(result, expectedKeys, check)) {
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
    if (this.watchIndex >= 0) context.scheduler.unwatch(this);
    this.#resolve({ decision, params: current === this.#original ? clone(current) : current });
  }

  /** Logs why `result` was refused; the handler counts as PASS. */
  #reject(subscription: Subscription, result: unknown): EventDecision {
    const judged = judgeHandlerResult(result, this.#keySet.keys);
    const problem = judged.ok ? 'returned an unusable result' : judged.problem;
    const keys = judged.ok || judged.added === undefined ? {} : { added_keys: judged.added, removed_keys: judged.removed };
    return this.#pass(subscription, `${problem}; counts as PASS`, keys);
  }

  #pass(subscription: Subscription, problem: string, fields: Record<string, unknown>): EventDecision {
    this.#context.warn(subscription, problem, fields);
    return EventDecision.PASS;
  }
}

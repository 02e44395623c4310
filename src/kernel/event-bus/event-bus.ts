import { describeError } from '../errors/describe-error.js';
import { EventPublishError } from '../errors/event-publish-error.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { Logger } from '../logger/logger.js';
import { RateLimitedLog } from '../logger/rate-limited-log.js';
import { type Disposer, once } from '../scope/disposer.js';
import type { Clock } from '../time/clock.js';
import { DeadlineScheduler } from './deadline-scheduler.js';
import { EventDecision } from './event-decision.js';
import type { EventName, EventParams } from './event-payloads.js';
import type { EventHandlerFunction } from './event-handler-function.js';
import type { HandlerResult } from './handler-result.js';
import { makeParamsCloner, type ParamsCloner, sameKeyList } from './params-cloner.js';
import { makeParamsShapeCheck, type ParamsShapeCheck } from './params-shape-check.js';
import { type KeySetTools, PublishRun, type RunContext } from './publish-run.js';
import type { SubscriberInfo, Subscription } from './subscription.js';
import type { HandlerTrace, PublishTracer } from './publish-tracer.js';

type Params = Record<string, unknown>;

export type { EventHandlerFunction } from './event-handler-function.js';
export type { SubscriberInfo } from './subscription.js';

/** The default per-handler timeout, in seconds (the NDFC seed's 30 s). */
export const DEFAULT_EVENT_HANDLER_TIMEOUT_SECONDS = 30;

/** How `EventBus.subscribe` places and times a handler; every field optional. */
export interface SubscribeOptions {
  /** Higher runs first; equal weights run in subscription order. Default 0. */
  weight?: number;
  /**
   * Seconds this handler may take. `undefined`/`null`: the bus default (30 s unless changed);
   * `<= 0`: no timeout; `> 0`: this many seconds, for this handler alone.
   */
  timeout?: number | null;
  /** Who this is in logs and listings, e.g. the handler's signature. */
  label?: string;
  /** The plugin id that owns the subscription. */
  owner?: string;
}

/** What `publish` resolves to: the last effective decision and the resulting params. */
export interface PublishResult<P> {
  /**
   * The decision of the last handler that ran: STOP when one ended the chain, PASS when the
   * last one passed (or threw, or timed out), SUCCESS when it succeeded or nobody subscribes.
   */
  decision: EventDecision;
  /** The params after the last SUCCESS or STOP; the published ones when every handler passed. */
  params: P;
}

/** How late a handler timeout may fire, in exchange for reading the clock once per window. */
export const DEFAULT_TIMEOUT_PRECISION_MS = 10;

export interface EventBusOptions {
  clock: Clock;
  logger: Logger;
  defaultTimeoutSeconds?: number;
  /**
   * A handler timeout fires after its time, never before, and at most this many
   * milliseconds after (default 10). 0 makes every timeout exact at the cost of a clock
   * read per async handler call.
   */
  timeoutPrecisionMs?: number;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function validateTimeout(functionName: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new InvalidArgumentError(functionName, 'timeout', value, 'a number of seconds, null or undefined');
  }
}

/**
 * Sequential, weighted middleware. `publish` runs the subscribers of an event one at a
 * time, highest weight first (ties in subscription order). Each gets a shallow copy of the
 * current params and returns `[decision, params]`: SUCCESS replaces the params and goes on,
 * PASS is ignored, STOP replaces them and ends the chain. A handler that throws, times out,
 * returns something malformed, or adds or removes a key counts as PASS and is logged.
 */
export class EventBus {
  readonly #logger: Logger;
  /** Handler warnings: a handler that fails on every event is counted after its first lines. */
  readonly #handlerWarnings: RateLimitedLog;
  readonly #runContext: RunContext;
  /** Sorted by (-weight, order); replaced, never mutated, so a running publish is unaffected. */
  readonly #subscriptions = new Map<string, readonly Subscription[]>();
  /** Per event, the copier and the result check for the key set it was last published with. */
  readonly #cloners = new Map<string, KeySetTools>();
  #tracer: PublishTracer | undefined;
  #order = 0;

  constructor(options: EventBusOptions) {
    this.#logger = options.logger;
    this.#handlerWarnings = new RateLimitedLog({ logger: options.logger, clock: options.clock });
    this.#runContext = {
      scheduler: new DeadlineScheduler({
        clock: options.clock,
        precisionMs: options.timeoutPrecisionMs ?? DEFAULT_TIMEOUT_PRECISION_MS,
      }),
      defaultTimeoutSeconds: options.defaultTimeoutSeconds ?? DEFAULT_EVENT_HANDLER_TIMEOUT_SECONDS,
      warn: (subscription, problem, fields) => this.#warn(subscription, problem, fields),
    };
  }

  /** The timeout, in seconds, of handlers that declare none. `<= 0` means none. */
  get defaultTimeoutSeconds(): number {
    return this.#runContext.defaultTimeoutSeconds;
  }

  /** Changes the default timeout for every handler that declares none, including existing ones. */
  setDefaultTimeout(seconds: number): void {
    if (typeof seconds !== 'number' || Number.isNaN(seconds)) {
      throw new InvalidArgumentError('setEventHandlerTimeout', 'seconds', seconds, 'a number (<= 0 disables the timeout)');
    }
    this.#runContext.defaultTimeoutSeconds = seconds;
  }

  /** Adds a handler to `eventName`; returns its disposer. */
  subscribe<E extends EventName, P extends EventParams<E> = EventParams<E>>(
    eventName: E,
    handler: (eventName: E, params: P) => HandlerResult<P> | PromiseLike<HandlerResult<P>>,
    options: SubscribeOptions = {},
  ): Disposer {
    if (typeof eventName !== 'string' || eventName.length === 0) {
      throw new EventPublishError(eventName, 'cannot subscribe: the event name must be a non-empty string');
    }
    if (typeof handler !== 'function') throw new EventPublishError(eventName, 'cannot subscribe: the handler is not a function');
    const weight = options.weight ?? 0;
    if (typeof weight !== 'number' || !Number.isFinite(weight)) {
      throw new InvalidArgumentError('subscribe', 'weight', weight, 'a finite number');
    }
    validateTimeout('subscribe', options.timeout);
    const order = this.#order++;
    const subscription: Subscription = {
      event: eventName,
      handler: handler as unknown as EventHandlerFunction,
      weight,
      timeout: options.timeout,
      label: options.label ?? (handler.name || `handler#${order}`),
      owner: options.owner,
      order,
    };
    const current = this.#subscriptions.get(eventName) ?? [];
    let index = current.findIndex((other) => other.weight < weight);
    if (index < 0) index = current.length;
    this.#subscriptions.set(eventName, [...current.slice(0, index), subscription, ...current.slice(index)]);
    return once(() => {
      const remaining = (this.#subscriptions.get(eventName) ?? []).filter((other) => other !== subscription);
      if (remaining.length === 0) {
        this.#subscriptions.delete(eventName);
        this.#cloners.delete(eventName);
      }
      else this.#subscriptions.set(eventName, remaining);
    });
  }

  /** The subscribers of `eventName` in the order they run. */
  subscribers(eventName: string): SubscriberInfo[] {
    return (this.#subscriptions.get(eventName) ?? []).map(({ handler: _handler, ...info }) => info);
  }

  /** Whether `eventName` has at least one subscriber (cheaper than `subscribers(eventName).length`). */
  hasSubscribers(eventName: string): boolean {
    return this.#subscriptions.has(eventName);
  }

  /** Every event that has at least one subscriber. */
  eventNames(): string[] {
    return [...this.#subscriptions.keys()];
  }

  /**
   * Runs the chain for `eventName`. With no subscribers: SUCCESS and a copy of `params`.
   * Throws `EventPublishError` for an empty name or params that are not a plain object.
   */
  publish<E extends EventName>(eventName: E, params: EventParams<E>): Promise<PublishResult<EventParams<E>>> {
    if (typeof eventName !== 'string' || eventName.length === 0) {
      return Promise.reject(new EventPublishError(eventName, 'cannot publish: the event name must be a non-empty string'));
    }
    if (!isPlainRecord(params)) {
      return Promise.reject(
        new EventPublishError(eventName, `cannot publish: params must be a plain object, got ${describeParams(params)}`),
      );
    }
    const subscriptions = this.#subscriptions.get(eventName);
    if (subscriptions === undefined) {
      return Promise.resolve({ decision: EventDecision.SUCCESS, params: { ...params } as EventParams<E> });
    }
    if (this.#tracer !== undefined) return this.#publishTraced(this.#tracer, eventName, subscriptions, params) as Promise<PublishResult<EventParams<E>>>;
    let tools = this.#cloners.get(eventName);
    if (tools === undefined || !tools.check(params)) {
      const keys = Object.keys(params);
      if (tools === undefined || !sameKeyList(tools.keys, keys)) {
        tools = keySetTools(keys);
        this.#cloners.set(eventName, tools);
      }
    }
    return PublishRun.start(this.#runContext, eventName, subscriptions, params, tools) as Promise<
      PublishResult<EventParams<E>>
    >;
  }

  /** Watches every publish from now on (the web console's traces); `undefined` stops watching. */
  setTracer(tracer: PublishTracer | undefined): void {
    this.#tracer = tracer;
  }

  #publishTraced(tracer: PublishTracer, eventName: string, subscriptions: readonly Subscription[], params: Params): Promise<PublishResult<Params>> {
    const startedAt = tracer.now();
    const handlers: HandlerTrace[] = subscriptions.map((subscription) => ({
      label: subscription.label,
      owner: subscription.owner,
      weight: subscription.weight,
      outcome: 'not reached',
      durationMs: 0,
    }));
    const note = (index: number, began: number, result: unknown, threw: boolean) => {
      const entry = handlers[index]!;
      entry.durationMs = tracer.now() - began;
      const decision = Array.isArray(result) ? (result[0] as unknown) : undefined;
      entry.outcome = threw ? 'threw' : decision === EventDecision.SUCCESS || decision === EventDecision.PASS || decision === EventDecision.STOP ? decision : 'invalid result';
    };
    const traced = subscriptions.map((subscription, index): Subscription => ({
      ...subscription,
      handler: (name, handlerParams) => {
        const began = tracer.now();
        let result: unknown;
        try {
          result = subscription.handler(name, handlerParams);
        } catch (error) {
          note(index, began, undefined, true);
          throw error;
        }
        if (typeof (result as PromiseLike<unknown> | null)?.then !== 'function') {
          note(index, began, result, false);
          return result as never;
        }
        return (result as PromiseLike<unknown>).then(
          (value) => (note(index, began, value, false), value),
          (error: unknown) => {
            note(index, began, undefined, true);
            throw error;
          },
        ) as never;
      },
    }));
    const run = PublishRun.start(this.#runContext, eventName, traced, params, keySetTools(Object.keys(params)));
    return run.then((result) => {
      try {
        tracer.record({ event: eventName, startedAt, durationMs: tracer.now() - startedAt, decision: result.decision, handlers }, params);
      } catch (error) {
        this.#logger.warn({ event: eventName, error: describeError(error) }, 'the publish tracer failed; tracing goes on');
      }
      return result as PublishResult<Params>;
    });
  }

  #warn(subscription: Subscription, problem: string, fields: Record<string, unknown> = {}): void {
    this.#handlerWarnings.warn(
      `${subscription.owner ?? ''}\u0000${subscription.label}\u0000${subscription.event}`,
      { event: subscription.event, handler: subscription.label, plugin: subscription.owner, ...fields },
      `event handler ${subscription.label} on "${subscription.event}" ${problem}`,
    );
  }
}

function keySetTools(keys: readonly string[]): KeySetTools {
  return { keys, clone: makeParamsCloner(keys), check: makeParamsShapeCheck(keys) };
}

function describeParams(params: unknown): string {
  if (params === null) return 'null';
  if (Array.isArray(params)) return 'an array';
  if (typeof params === 'object') return `an instance of ${(params as object).constructor?.name ?? 'an unknown class'}`;
  return typeof params;
}

import { type EventDecision, isEventDecision } from './event-decision.js';
import type { ParamsShapeCheck } from './params-shape-check.js';

/** What a handler returns: a decision and the params it wants to pass on. */
export type HandlerResult<P> = readonly [EventDecision, P];

/** A handler's return value, judged: usable, or the reason it counts as PASS. */
export type JudgedResult =
  | { readonly ok: true; readonly decision: EventDecision; readonly params: Record<string, unknown> }
  | { readonly ok: false; readonly problem: string; readonly added?: string[]; readonly removed?: string[] };

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Checks a handler's return against the rules of the bus: a `[decision, params]` pair,
 * a known decision, a plain-object params whose key set equals the initial key set.
 */
export function judgeHandlerResult(result: unknown, expectedKeys: readonly string[]): JudgedResult {
  if (!Array.isArray(result) || result.length !== 2) {
    return { ok: false, problem: 'did not return a [decision, params] pair' };
  }
  const decision: unknown = result[0];
  const params: unknown = result[1];
  if (!isEventDecision(decision)) {
    return { ok: false, problem: `returned an unknown decision ${JSON.stringify(decision) ?? String(decision)}` };
  }
  if (!isPlainRecord(params)) return { ok: false, problem: 'returned params that are not a plain object' };
  if (!hasSameKeys(params, expectedKeys)) {
    const { added, removed } = keyDifference(params, expectedKeys);
    return {
      ok: false,
      problem: 'changed the payload keys (handlers may change values, never add or remove keys)',
      added,
      removed,
    };
  }
  return { ok: true, decision, params };
}

/**
 * The allocation-free check the bus runs on every result: a `[decision, params]` pair with
 * a known decision and a plain-object params holding exactly `expectedKeys`. When it fails,
 * `judgeHandlerResult` says why.
 */
export function isAcceptableResult(result: unknown, expectedKeys: readonly string[]): boolean {
  if (!Array.isArray(result) || result.length !== 2) return false;
  const decision: unknown = result[0];
  if (decision !== 'SUCCESS' && decision !== 'PASS' && decision !== 'STOP') return false;
  const params: unknown = result[1];
  return isPlainRecord(params) && hasSameKeys(params, expectedKeys);
}

/**
 * `isAcceptableResult`, trying `check` (made for `expectedKeys` by `makeParamsShapeCheck`)
 * first: the usual result passes it at a fraction of the cost, and anything it does not
 * pass gets the exact check.
 */
export function isAcceptableResultFor(result: unknown, expectedKeys: readonly string[], check: ParamsShapeCheck): boolean {
  if (Array.isArray(result) && result.length === 2) {
    const decision: unknown = result[0];
    const params: unknown = result[1];
    if (
      (decision === 'SUCCESS' || decision === 'PASS' || decision === 'STOP') &&
      typeof params === 'object' &&
      params !== null &&
      !Array.isArray(params) &&
      check(params)
    ) {
      return true;
    }
  }
  return isAcceptableResult(result, expectedKeys);
}

function hasSameKeys(params: Record<string, unknown>, expectedKeys: readonly string[]): boolean {
  const keys = Object.keys(params);
  const count = expectedKeys.length;
  if (keys.length !== count) return false;
  // Usually the handler returns its copy (or a spread of it): same keys, same order.
  let index = 0;
  while (index < count && keys[index] === expectedKeys[index]) index += 1;
  if (index === count) return true;
  for (const key of expectedKeys) {
    if (!Object.hasOwn(params, key)) return false;
  }
  return true;
}

function keyDifference(params: Record<string, unknown>, expectedKeys: readonly string[]): { added: string[]; removed: string[] } {
  const expected = new Set(expectedKeys);
  const actual = Object.keys(params);
  return {
    added: actual.filter((key) => !expected.has(key)),
    removed: expectedKeys.filter((key) => !Object.hasOwn(params, key)),
  };
}

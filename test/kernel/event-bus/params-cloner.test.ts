import { describe, expect, it } from 'vitest';
import { makeParamsCloner, sameKeyList } from '../../../src/kernel/event-bus/params-cloner.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import { createTestBus } from '../../support/bus.js';

describe('makeParamsCloner', () => {
  it('makes a new top-level object with the same keys, in order, sharing nested values', () => {
    const nested = { messages: ['a'] };
    const params = { stream_id: 's1', nested, count: 3 };
    const copy = makeParamsCloner(Object.keys(params))(params);
    expect(copy).toEqual(params);
    expect(copy).not.toBe(params);
    expect(copy['nested']).toBe(nested);
    expect(Object.keys(copy)).toEqual(['stream_id', 'nested', 'count']);
  });

  it('copies keys that are not identifiers, and keeps __proto__ an own property', () => {
    const params = JSON.parse('{"with space": 1, "quote\\"d": 2, "__proto__": {"polluted": true}, "\\u2028": 3}') as Record<string, unknown>;
    const copy = makeParamsCloner(Object.keys(params))(params);
    expect(Object.keys(copy)).toEqual(Object.keys(params));
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('compares key lists by order and content', () => {
    expect(sameKeyList(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameKeyList(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameKeyList(['a'], ['a', 'b'])).toBe(false);
  });
});

describe('EventBus copies', () => {
  it('serves the same event published with different key sets, each checked against its own keys', async () => {
    const { bus } = createTestBus();
    bus.subscribe('flex', (_name, params) => [EventDecision.SUCCESS, { ...params, seen: true }]);
    expect((await bus.publish('flex', { seen: false })).params).toEqual({ seen: true });
    expect((await bus.publish('flex', { a: 1, seen: false })).params).toEqual({ a: 1, seen: true });
    expect((await bus.publish('flex', { seen: false })).params).toEqual({ seen: true });
  });
});

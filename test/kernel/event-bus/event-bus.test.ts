import { describe, expect, it } from 'vitest';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import { DEFAULT_TIMEOUT_PRECISION_MS } from '../../../src/kernel/event-bus/event-bus.js';
import { EventType } from '../../../src/kernel/event-bus/event-type.js';
import { EventPublishError } from '../../../src/kernel/errors/event-publish-error.js';
import { MoonglassError } from '../../../src/kernel/errors/moonglass-error.js';
import { flushMicrotasks } from '../../../src/kernel/time/manual-clock.js';
import { createTestBus } from '../../support/bus.js';

type V = { v: number };

describe('EventBus', () => {
  describe('ordering and decisions', () => {
    it('[N-11] runs weights 30/20/10/0 as SUCCESS(+1), PASS(+100), STOP(+10): the last never runs, result STOP with v = 11', async () => {
      const { bus } = createTestBus();
      const ran: number[] = [];
      bus.subscribe('calc', (_name, p: V) => (ran.push(0), [EventDecision.SUCCESS, { v: p.v + 1000 }]), { weight: 0 });
      bus.subscribe('calc', (_name, p: V) => (ran.push(10), [EventDecision.STOP, { v: p.v + 10 }]), { weight: 10 });
      bus.subscribe('calc', async (_name, p: V) => (ran.push(30), [EventDecision.SUCCESS, { v: p.v + 1 }]), { weight: 30 });
      bus.subscribe('calc', async (_name, p: V) => (ran.push(20), [EventDecision.PASS, { v: p.v + 100 }]), { weight: 20 });

      const result = await bus.publish('calc', { v: 0 });

      expect(ran).toEqual([30, 20, 10]);
      expect(result).toEqual({ decision: EventDecision.STOP, params: { v: 11 } });
    });

    it('[N-11] passes each handler the previous SUCCESS output as its input', async () => {
      const { bus } = createTestBus();
      const seen: string[] = [];
      bus.subscribe('chain', (_n, p: { s: string }) => [EventDecision.SUCCESS, { s: `${p.s}a` }], { weight: 3 });
      bus.subscribe('chain', (_n, p: { s: string }) => (seen.push(p.s), [EventDecision.SUCCESS, { s: `${p.s}b` }]), { weight: 2 });
      bus.subscribe('chain', (_n, p: { s: string }) => (seen.push(p.s), [EventDecision.SUCCESS, { s: `${p.s}c` }]), { weight: 1 });
      const result = await bus.publish('chain', { s: '' });
      expect(seen).toEqual(['a', 'ab']);
      expect(result.params).toEqual({ s: 'abc' });
      expect(result.decision).toBe(EventDecision.SUCCESS);
    });

    it('[N-40] runs handlers of equal weight in subscription order', async () => {
      const { bus } = createTestBus();
      const ran: string[] = [];
      for (const label of ['first', 'second', 'third']) {
        bus.subscribe('tie', (_n, p) => (ran.push(label), [EventDecision.PASS, p]), { weight: 5 });
      }
      bus.subscribe('tie', (_n, p) => (ran.push('heavy'), [EventDecision.PASS, p]), { weight: 6 });
      bus.subscribe('tie', (_n, p) => (ran.push('light'), [EventDecision.PASS, p]), { weight: -1 });
      await bus.publish('tie', {});
      expect(ran).toEqual(['heavy', 'first', 'second', 'third', 'light']);
    });

    it('[N-11] discards the params of a PASS handler and reports PASS when it ran last', async () => {
      const { bus } = createTestBus();
      bus.subscribe('observe', (_n, p: V) => [EventDecision.PASS, { v: p.v + 1 }]);
      const input = { v: 1 };
      const result = await bus.publish('observe', input);
      expect(result).toEqual({ decision: EventDecision.PASS, params: { v: 1 } });
      expect(result.params).not.toBe(input);
    });

    it('[N-41] returns the params a STOP handler set, so the publisher reads them back', async () => {
      const { bus } = createTestBus();
      bus.subscribe('fetch', (_n, p: { messages: string[] }) => [EventDecision.SUCCESS, { ...p, messages: ['default'] }], { weight: 0 });
      bus.subscribe('fetch', (_n, p: { messages: string[] }) => [EventDecision.STOP, { ...p, messages: ['custom'] }], { weight: 200 });
      const result = await bus.publish('fetch', { messages: [] as string[] });
      expect(result.decision).toBe(EventDecision.STOP);
      expect(result.params.messages).toEqual(['custom']);
    });

    it('[N-42] keeps changes to a shared mutable object even when the handler returns PASS', async () => {
      const { bus } = createTestBus();
      const seen = new Set<string>();
      const response = { messages: [] as string[] };
      bus.subscribe('shared', (_n, p: { response: typeof response; seen: Set<string> }) => {
        p.response.messages.push('injected');
        p.seen.add('sig');
        return [EventDecision.PASS, p];
      });
      await bus.publish('shared', { response, seen });
      expect(response.messages).toEqual(['injected']);
      expect(seen.has('sig')).toBe(true);
    });

    it('gives every handler its own shallow copy of the current params', async () => {
      const { bus } = createTestBus();
      const copies: object[] = [];
      bus.subscribe('copy', (_n, p: V) => {
        copies.push(p);
        p.v = 99; // mutating the top level of the copy must not leak when the handler PASSes
        return [EventDecision.PASS, p];
      }, { weight: 1 });
      bus.subscribe('copy', (_n, p: V) => (copies.push(p), [EventDecision.PASS, p]));
      const input = { v: 1 };
      const result = await bus.publish('copy', input);
      expect(copies[0]).not.toBe(input);
      expect(copies[1]).not.toBe(copies[0]);
      expect(copies[1]).toEqual({ v: 1 });
      expect(input).toEqual({ v: 1 });
      expect(result.params).toEqual({ v: 1 });
    });
  });

  describe('when nobody subscribes', () => {
    it('resolves to SUCCESS and a copy of the params', async () => {
      const { bus } = createTestBus();
      const input = { a: 1 };
      const result = await bus.publish('nobody', input);
      expect(result).toEqual({ decision: EventDecision.SUCCESS, params: { a: 1 } });
      expect(result.params).not.toBe(input);
    });
  });

  describe('event names', () => {
    it('treats an EventType member and its string value as the same event', async () => {
      const { bus } = createTestBus();
      const calls: string[] = [];
      bus.subscribe(EventType.ON_PROMPT_BUILD, (name, p) => (calls.push(`enum:${name}`), [EventDecision.PASS, p]));
      bus.subscribe('on_prompt_build', (name, p) => (calls.push(`string:${name}`), [EventDecision.PASS, p]));
      await bus.publish('on_prompt_build', {} as never);
      await bus.publish(EventType.ON_PROMPT_BUILD, {} as never);
      expect(calls).toEqual(['enum:on_prompt_build', 'string:on_prompt_build', 'enum:on_prompt_build', 'string:on_prompt_build']);
    });

    it('stops calling a handler once its disposer ran, and tolerates a second call', async () => {
      const { bus } = createTestBus();
      let calls = 0;
      const dispose = bus.subscribe('e', (_n, p) => (calls++, [EventDecision.PASS, p]));
      await bus.publish('e', {});
      dispose();
      dispose();
      await bus.publish('e', {});
      expect(calls).toBe(1);
      expect(bus.subscribers('e')).toEqual([]);
    });

    it('lets a publish that is already running finish with the handlers it started with', async () => {
      const { bus } = createTestBus();
      const ran: string[] = [];
      let disposeLater = (): void => undefined;
      bus.subscribe('e', (_n, p) => (ran.push('first'), disposeLater(), [EventDecision.PASS, p]), { weight: 1 });
      disposeLater = bus.subscribe('e', (_n, p) => (ran.push('second'), [EventDecision.PASS, p]));
      await bus.publish('e', {});
      await bus.publish('e', {});
      expect(ran).toEqual(['first', 'second', 'first']);
    });
  });

  describe('bad input', () => {
    it.each([
      ['an empty name', '', {}, /event name must be a non-empty string/],
      ['a non-string name', 42 as unknown as string, {}, /event name must be a non-empty string/],
      ['null params', 'e', null, /params must be a plain object, got null/],
      ['array params', 'e', [1], /params must be a plain object, got an array/],
      ['class-instance params', 'e', new Map(), /got an instance of Map/],
      ['string params', 'e', 'text', /got string/],
    ])('rejects %s with a clear EventPublishError', async (_label, name, params, message) => {
      const { bus } = createTestBus();
      const error = await bus.publish(name, params as Record<string, unknown>).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(EventPublishError);
      expect(MoonglassError.hasCode(error, 'MG_EVENT_PUBLISH')).toBe(true);
      expect((error as Error).message).toMatch(message);
    });

    it('refuses to subscribe with an empty name, a non-function or a non-finite weight', () => {
      const { bus } = createTestBus();
      expect(() => bus.subscribe('', (_n, p) => [EventDecision.PASS, p])).toThrow(/non-empty string/);
      expect(() => bus.subscribe('e', 'nope' as never)).toThrow(/not a function/);
      expect(() => bus.subscribe('e', (_n, p) => [EventDecision.PASS, p], { weight: Number.NaN })).toThrow(/weight must be a finite number/);
      expect(() => bus.subscribe('e', (_n, p) => [EventDecision.PASS, p], { timeout: 'x' as never })).toThrow(/timeout must be/);
    });
  });

  describe('fail-open', () => {
    it('[N-37] drops the effect of a handler that adds a key and warns with its name and the key', async () => {
      const { bus, warnings } = createTestBus();
      bus.subscribe('keys', (_n, p: V) => [EventDecision.SUCCESS, { ...p, v: 5, extra: true }], { weight: 2, label: 'adds_key' });
      bus.subscribe('keys', (_n, p: V) => [EventDecision.SUCCESS, { v: p.v + 1 }], { weight: 1 });
      const result = await bus.publish('keys', { v: 0 });
      expect(result).toEqual({ decision: EventDecision.SUCCESS, params: { v: 1 } });
      const [warning] = warnings();
      expect(warning).toMatchObject({ handler: 'adds_key', event: 'keys', added_keys: ['extra'], removed_keys: [] });
      expect(warning!.msg).toContain('adds_key');
    });

    it('[N-37] drops the effect of a handler that removes a key, even with STOP, and the chain goes on', async () => {
      const { bus, warnings } = createTestBus();
      bus.subscribe('keys', () => [EventDecision.STOP, { a: 9 }], { weight: 2, label: 'removes_key' });
      bus.subscribe('keys', (_n, p: { a: number; b: number }) => [EventDecision.SUCCESS, { ...p, b: p.b + 1 }], { weight: 1 });
      const result = await bus.publish('keys', { a: 1, b: 1 });
      expect(result.params).toEqual({ a: 1, b: 2 });
      expect(warnings()[0]).toMatchObject({ handler: 'removes_key', added_keys: [], removed_keys: ['b'] });
    });

    it('[N-38] counts a handler that throws as PASS, logs its name, and runs the rest', async () => {
      const { bus, warnings } = createTestBus();
      bus.subscribe('boom', () => {
        throw new Error('kaput');
      }, { weight: 3, label: 'sync_thrower' });
      bus.subscribe('boom', async () => {
        throw new Error('async kaput');
      }, { weight: 2, label: 'async_thrower' });
      bus.subscribe('boom', (_n, p: V) => [EventDecision.SUCCESS, { v: p.v + 1 }], { weight: 1 });
      const result = await bus.publish('boom', { v: 0 });
      expect(result).toEqual({ decision: EventDecision.SUCCESS, params: { v: 1 } });
      expect(warnings().map((w) => [w['handler'], w['error']])).toEqual([
        ['sync_thrower', 'Error: kaput'],
        ['async_thrower', 'Error: async kaput'],
      ]);
    });

    it('[N-37] drops the effect of a handler that removes a key an altered Object.prototype supplies', async () => {
      const { bus, warnings } = createTestBus();
      bus.subscribe('keys', (_n, p: { a: number; b: number }) => {
        const { b: _removed, ...rest } = p;
        return [EventDecision.SUCCESS, rest as never];
      }, { weight: 1, label: 'removes_key' });
      Object.defineProperty(Object.prototype, 'b', { value: 7, enumerable: true, configurable: true, writable: true });
      try {
        const result = await bus.publish('keys', { a: 1, b: 1 });
        expect(result).toEqual({ decision: EventDecision.PASS, params: { a: 1, b: 1 } });
        expect(Object.hasOwn(result.params, 'b')).toBe(true);
        expect(warnings()[0]).toMatchObject({ handler: 'removes_key', removed_keys: ['b'] });
      } finally {
        delete (Object.prototype as Record<string, unknown>)['b'];
      }
    });

    it('accepts params with the same keys beside an enumerable key of an altered Object.prototype', async () => {
      const { bus, warnings } = createTestBus();
      bus.subscribe('keys', (_n, p: V) => [EventDecision.SUCCESS, { v: p.v + 1 }]);
      Object.defineProperty(Object.prototype, 'polluted', { value: true, enumerable: true, configurable: true, writable: true });
      try {
        expect(await bus.publish('keys', { v: 0 })).toEqual({ decision: EventDecision.SUCCESS, params: { v: 1 } });
        expect(warnings()).toEqual([]);
      } finally {
        delete (Object.prototype as Record<string, unknown>)['polluted'];
      }
    });

    it('accepts params with the same keys in another order, or without a prototype', async () => {
      const { bus, warnings } = createTestBus();
      bus.subscribe('keys', (_n, p: { a: number; b: number }) => [EventDecision.SUCCESS, { b: p.b + 1, a: p.a }], { weight: 2 });
      bus.subscribe('keys', (_n, p: { a: number; b: number }) => [EventDecision.SUCCESS, Object.assign(Object.create(null) as object, p, { a: p.a + 1 })], { weight: 1 });
      const result = await bus.publish('keys', { a: 1, b: 1 });
      expect(result.decision).toBe(EventDecision.SUCCESS);
      expect({ ...result.params }).toEqual({ a: 2, b: 2 });
      expect(warnings()).toEqual([]);
    });

    it.each([
      ['undefined', undefined],
      ['a bare decision', EventDecision.SUCCESS],
      ['an unknown decision', ['MAYBE', { v: 5 }]],
      ['a three-element array', [EventDecision.SUCCESS, { v: 5 }, 'x']],
      ['params that are not an object', [EventDecision.SUCCESS, 'v']],
      ['params that are an array', [EventDecision.SUCCESS, [5]]],
      ['params that are a class instance', [EventDecision.SUCCESS, new (class Params { v = 5 })()]],
    ])('counts a handler returning %s as PASS', async (_label, returned) => {
      const { bus, warnings } = createTestBus();
      bus.subscribe('bad', () => returned as never, { weight: 1, label: 'malformed' });
      const result = await bus.publish('bad', { v: 0 });
      expect(result).toEqual({ decision: EventDecision.PASS, params: { v: 0 } });
      expect(warnings()[0]).toMatchObject({ handler: 'malformed' });
    });
  });

  describe('timeouts', () => {
    const hang = () => new Promise<never>(() => undefined);

    it('[N-39] drops a handler that hangs past the 30 s default (never sooner, at most 10 ms later) and goes on', async () => {
      const { bus, clock, warnings } = createTestBus();
      bus.subscribe('slow', hang as never, { weight: 2, label: 'hangs' });
      bus.subscribe('slow', (_n, p: V) => [EventDecision.SUCCESS, { v: p.v + 1 }], { weight: 1 });
      const pending = bus.publish('slow', { v: 0 });
      await clock.advance(29_999);
      let settled = false;
      void pending.then(() => (settled = true));
      await flushMicrotasks();
      expect(settled).toBe(false);
      await clock.advance(1 + DEFAULT_TIMEOUT_PRECISION_MS);
      expect(await pending).toEqual({ decision: EventDecision.SUCCESS, params: { v: 1 } });
      expect(warnings()[0]).toMatchObject({ handler: 'hangs' });
      expect(warnings()[0]!.msg).toContain('timed out after 30 s');
    });

    it('[N-39] ignores a result that arrives after the timeout', async () => {
      const { bus, clock } = createTestBus();
      bus.subscribe('late', async (_n, p: V) => {
        await clock.sleep(2_000);
        return [EventDecision.STOP, { v: p.v + 100 }];
      }, { timeout: 1 });
      const pending = bus.publish('late', { v: 0 });
      await clock.advance(1_000 + DEFAULT_TIMEOUT_PRECISION_MS);
      const result = await pending;
      await clock.advance(5_000);
      expect(result).toEqual({ decision: EventDecision.PASS, params: { v: 0 } });
    });

    it('[N-39] lets a handler with timeout <= 0 run as long as it needs', async () => {
      const { bus, clock } = createTestBus();
      for (const timeout of [0, -1]) {
        const dispose = bus.subscribe('long', async (_n, p: V) => {
          await clock.sleep(120_000);
          return [EventDecision.SUCCESS, { v: p.v + 1 }];
        }, { timeout });
        const pending = bus.publish('long', { v: 0 });
        await clock.advance(120_000);
        expect(await pending).toEqual({ decision: EventDecision.SUCCESS, params: { v: 1 } });
        dispose();
      }
    });

    it('[N-39] applies a handler’s own timeout to it alone, also under concurrent publishes', async () => {
      const { bus, clock } = createTestBus();
      bus.subscribe('a', async (_n, p: V) => {
        await clock.sleep(5_000);
        return [EventDecision.SUCCESS, { v: p.v + 1 }];
      }, { timeout: 10 });
      bus.subscribe('b', async (_n, p: V) => {
        await clock.sleep(5_000);
        return [EventDecision.SUCCESS, { v: p.v + 1 }];
      }, { timeout: 2 });
      const first = bus.publish('a', { v: 0 });
      const second = bus.publish('b', { v: 0 });
      const third = bus.publish('a', { v: 10 });
      await clock.advance(5_000);
      expect(await first).toEqual({ decision: EventDecision.SUCCESS, params: { v: 1 } });
      expect(await second).toEqual({ decision: EventDecision.PASS, params: { v: 0 } });
      expect(await third).toEqual({ decision: EventDecision.SUCCESS, params: { v: 11 } });
    });

    it('[N-39] uses a changed default for handlers without their own timeout, including existing ones', async () => {
      const { bus, clock } = createTestBus();
      bus.subscribe('d', async (_n, p: V) => {
        await clock.sleep(40_000);
        return [EventDecision.SUCCESS, { v: 1 }];
      });
      bus.subscribe('d', async (_n, p: V) => {
        await clock.sleep(40_000);
        return [EventDecision.SUCCESS, { v: p.v + 10 }];
      }, { timeout: 50, weight: -1 });
      bus.setDefaultTimeout(60);
      expect(bus.defaultTimeoutSeconds).toBe(60);
      const pending = bus.publish('d', { v: 0 });
      await clock.advance(80_000);
      expect((await pending).params).toEqual({ v: 11 });

      bus.setDefaultTimeout(0);
      const unlimited = bus.publish('d', { v: 0 });
      await clock.advance(80_000);
      expect((await unlimited).params).toEqual({ v: 11 });

      bus.setDefaultTimeout(1);
      const short = bus.publish('d', { v: 0 });
      await clock.advance(42_000);
      expect((await short).params).toEqual({ v: 10 });
    });

    it('refuses a default timeout that is not a number', () => {
      const { bus } = createTestBus();
      expect(() => bus.setDefaultTimeout(Number.NaN)).toThrow(/seconds must be a number/);
      expect(() => bus.setDefaultTimeout('30' as never)).toThrow(/seconds must be a number/);
    });

    it('[N-39] times each handler of a chain from its own start, with its own timeout', async () => {
      const { bus, clock } = createTestBus();
      const slowSuccess = (ms: number) => async (_n: string, p: V) => {
        await clock.sleep(ms);
        return [EventDecision.SUCCESS, { v: p.v + 1 }] as const;
      };
      // Each takes 900 ms of its 1 s: together longer than one timeout, and none times out.
      bus.subscribe('chain', slowSuccess(900), { weight: 3, timeout: 1 });
      bus.subscribe('chain', slowSuccess(900), { weight: 2, timeout: 1 });
      // No limit after a limited one: the earlier deadline does not cut it short.
      bus.subscribe('chain', slowSuccess(5_000), { weight: 1, timeout: 0 });
      // A short limit after all of them still fires on time.
      bus.subscribe('chain', () => new Promise<never>(() => undefined), { weight: 0, timeout: 0.5, label: 'hangs' });
      const pending = bus.publish('chain', { v: 0 });
      let settled = false;
      void pending.then(() => (settled = true));
      await clock.advance(900 + 900 + 5_000 + 499);
      expect(settled).toBe(false);
      await clock.advance(1 + DEFAULT_TIMEOUT_PRECISION_MS);
      expect(await pending).toEqual({ decision: EventDecision.PASS, params: { v: 3 } });
    });

    it('does not time out a handler that returns synchronously', async () => {
      const { bus, clock } = createTestBus(0.001);
      bus.subscribe('sync', (_n, p: V) => [EventDecision.SUCCESS, { v: p.v + 1 }]);
      const result = await bus.publish('sync', { v: 0 });
      expect(result.params).toEqual({ v: 1 });
      expect(clock.pendingTimers).toBe(0);
    });
  });

  describe('when a handler fails on every event (issue 13, item 10)', () => {
    const size = (records: readonly object[]) => records.reduce((sum, record) => sum + JSON.stringify(record).length, 0);

    it('logs its first three failures in full, then one count a minute: 1,000 failures stay under 5 KB beyond those', async () => {
      const { bus, clock, warnings } = createTestBus();
      const detail = 'x'.repeat(1_000);
      let calls = 0;
      bus.subscribe('on_message', () => {
        calls += 1;
        throw new Error(`kaput #${calls} ${detail}`);
      }, { label: 'broken:event_handler:always', owner: 'broken' });
      for (let index = 0; index < 1_000; index += 1) await bus.publish('on_message', { v: index });

      expect(calls).toBe(1_000);
      const full = warnings().slice(0, 3);
      expect(full.map((w) => w['error'])).toEqual([`Error: kaput #1 ${detail}`, `Error: kaput #2 ${detail}`, `Error: kaput #3 ${detail}`]);
      expect(warnings()).toHaveLength(3);

      await clock.advance(60_000);
      const rest = warnings().slice(3);
      expect(rest).toHaveLength(1);
      expect(rest[0]).toMatchObject({ handler: 'broken:event_handler:always', plugin: 'broken', event: 'on_message', repeated: 997, error: `Error: kaput #1000 ${detail}` });
      expect(rest[0]!.msg).toMatch(/^repeated 997 more times in the last 60 s .*; the last: event handler broken:event_handler:always on "on_message" threw; counts as PASS$/);
      expect(size(rest)).toBeLessThan(5_000);
    });

    it('counts each handler and event on its own, timeouts and malformed results included', async () => {
      const { bus, clock, warnings } = createTestBus(1);
      bus.subscribe('e1', () => new Promise<never>(() => undefined), { label: 'hangs', weight: 2 });
      bus.subscribe('e1', () => 'nonsense' as never, { label: 'malformed', weight: 1 });
      bus.subscribe('e2', () => 'nonsense' as never, { label: 'malformed' });
      for (let index = 0; index < 10; index += 1) {
        const published = bus.publish('e1', {});
        await clock.advance(1_000 + DEFAULT_TIMEOUT_PRECISION_MS);
        await published;
        await bus.publish('e2', {});
      }
      const byHandler = (label: string, event: string) => warnings().filter((w) => w['handler'] === label && w['event'] === event && w['repeated'] === undefined);
      expect(byHandler('hangs', 'e1')).toHaveLength(3);
      expect(byHandler('malformed', 'e1')).toHaveLength(3);
      expect(byHandler('malformed', 'e2')).toHaveLength(3);
      await clock.advance(60_000);
      const summaries = warnings().filter((w) => w['repeated'] !== undefined);
      expect(summaries.map((w) => [w['handler'], w['event'], w['repeated']]).sort()).toEqual([
        ['hangs', 'e1', 7],
        ['malformed', 'e1', 7],
        ['malformed', 'e2', 7],
      ]);
    });
  });

  describe('listing', () => {
    it('lists subscribers in the order they run, with label, owner, weight and timeout', () => {
      const { bus } = createTestBus();
      bus.subscribe('e', (_n, p) => [EventDecision.PASS, p], { weight: 0, label: 'x:event_handler:default', owner: 'x' });
      bus.subscribe('e', (_n, p) => [EventDecision.PASS, p], { weight: 200, label: 'y:event_handler:mine', owner: 'y', timeout: 0 });
      expect(bus.subscribers('e').map(({ label, owner, weight, timeout }) => ({ label, owner, weight, timeout }))).toEqual([
        { label: 'y:event_handler:mine', owner: 'y', weight: 200, timeout: 0 },
        { label: 'x:event_handler:default', owner: 'x', weight: 0, timeout: undefined },
      ]);
      expect(bus.eventNames()).toEqual(['e']);
    });
  });
});

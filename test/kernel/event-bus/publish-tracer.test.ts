import { describe, expect, it } from 'vitest';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import type { PublishTrace } from '../../../src/kernel/event-bus/publish-tracer.js';
import { createTestBus } from '../../support/bus.js';

describe('a publish tracer', () => {
  function traced() {
    const { bus, clock } = createTestBus();
    const traces: { trace: PublishTrace; params: Record<string, unknown> }[] = [];
    let tick = 0;
    bus.setTracer({ now: () => (tick += 5), record: (trace, params) => traces.push({ trace, params: { ...params } }) });
    return { bus, clock, traces };
  }

  it('records each handler’s outcome and time in run order, the ones below a STOP as not reached, and the publish’s decision', async () => {
    const { bus, traces } = traced();
    bus.subscribe('demo', (_e, params) => [EventDecision.SUCCESS, params], { weight: 300, label: 'adds', owner: 'plugin_a' });
    bus.subscribe('demo', () => [EventDecision.STOP, { value: 2 }], { weight: 200, label: 'replaces', owner: 'plugin_b' });
    bus.subscribe('demo', (_e, params) => [EventDecision.SUCCESS, params], { weight: 100, label: 'never', owner: 'plugin_c' });
    const result = await bus.publish('demo' as never, { value: 1 } as never);
    expect(result).toEqual({ decision: EventDecision.STOP, params: { value: 2 } });
    expect(traces).toHaveLength(1);
    const [{ trace, params }] = traces as [(typeof traces)[0]];
    expect(params).toEqual({ value: 1 });
    expect(trace).toMatchObject({ event: 'demo', decision: EventDecision.STOP });
    expect(trace.handlers.map((handler) => [handler.label, handler.owner, handler.weight, handler.outcome])).toEqual([
      ['adds', 'plugin_a', 300, 'SUCCESS'],
      ['replaces', 'plugin_b', 200, 'STOP'],
      ['never', 'plugin_c', 100, 'not reached'],
    ]);
    expect(trace.handlers[0]!.durationMs).toBe(5);
  });

  it('shows a handler that threw or returned something unusable (both count as PASS), sync or async, and tracing off again costs nothing', async () => {
    const { bus, traces } = traced();
    bus.subscribe('demo', () => {
      throw new Error('boom');
    }, { weight: 3, label: 'throws' });
    bus.subscribe('demo', async () => 'nonsense' as never, { weight: 2, label: 'invalid' });
    bus.subscribe('demo', async (_e, params) => [EventDecision.PASS, params], { weight: 1, label: 'watches' });
    expect((await bus.publish('demo' as never, { value: 1 } as never)).decision).toBe(EventDecision.PASS);
    expect(traces[0]!.trace.handlers.map((handler) => handler.outcome)).toEqual(['threw', 'invalid result', 'PASS']);
    bus.setTracer(undefined);
    await bus.publish('demo' as never, { value: 1 } as never);
    expect(traces).toHaveLength(1);
  });
});

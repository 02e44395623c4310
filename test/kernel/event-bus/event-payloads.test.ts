import { describe, expectTypeOf, it } from 'vitest';
import { EventBus } from '../../../src/kernel/event-bus/event-bus.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import type { EventParams, OnStartPayload } from '../../../src/kernel/event-bus/event-payloads.js';
import { BaseEventHandler } from '../../../src/kernel/event-bus/base-event-handler.js';

// These assertions are checked by `npm run typecheck` (test/ is part of the type check).
declare module 'moonglass' {
  interface EventPayloads {
    'typing_test:thing_happened': { stream_id: string; count: number };
  }
}

describe('EventPayloads (types)', () => {
  it('types the params of known events, including ones added by declaration merging', () => {
    expectTypeOf<EventParams<'on_start'>>().toEqualTypeOf<OnStartPayload>();
    expectTypeOf<EventParams<'typing_test:thing_happened'>>().toEqualTypeOf<{ stream_id: string; count: number }>();
    expectTypeOf<EventParams<'anything_else'>>().toEqualTypeOf<Record<string, unknown>>();
  });

  it('types handler params and publish results', () => {
    const bus = null as unknown as EventBus;
    const subscribe = () =>
      bus.subscribe('typing_test:thing_happened', (_name, params) => {
        expectTypeOf(params.count).toEqualTypeOf<number>();
        return [EventDecision.SUCCESS, { ...params, count: params.count + 1 }];
      });
    const publish = () => bus.publish('typing_test:thing_happened', { stream_id: 's', count: 1 });
    expectTypeOf(publish).returns.resolves.toHaveProperty('params').toEqualTypeOf<{ stream_id: string; count: number }>();
    // @ts-expect-error a payload missing a key of a known event does not compile
    const wrong = () => bus.publish('typing_test:thing_happened', { stream_id: 's' });
    void subscribe;
    void wrong;
  });

  it('types BaseEventHandler.execute for the event it is written for', () => {
    class Counter extends BaseEventHandler<'typing_test:thing_happened'> {
      execute(_event: 'typing_test:thing_happened', params: EventParams<'typing_test:thing_happened'>) {
        return [EventDecision.SUCCESS, { ...params, count: params.count * 2 }] as const;
      }
    }
    expectTypeOf<Parameters<Counter['execute']>[1]>().toEqualTypeOf<{ stream_id: string; count: number }>();
  });
});

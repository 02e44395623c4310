import { describe, expect, expectTypeOf, it } from 'vitest';
import { eventHandler } from '../../../src/kernel/components/decorators.js';
import { BaseEventHandler } from '../../../src/kernel/event-bus/base-event-handler.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import type { EventParams } from '../../../src/kernel/event-bus/event-payloads.js';
import { publishEvent } from '../../../src/kernel/runtime/module-api.js';
import { NdfcEvent } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-event.js';
import type { FetchUnreadsPayload, NdfcEventPayloads } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-payloads.js';
import { useNdfcHost } from './ndfc-test-host.js';

const SEAMS = [
  'preprocess',
  'fetch_unreads',
  'format_unread_line',
  'flush_unreads',
  'create_request',
  'inject_usables',
  'run_tool_call',
  'inject_unread_payload',
  'build_history_text',
  'build_negative_extra',
  'pick_trigger_message',
  'build_resume_prompt',
  'dedupe_tool_call',
  'format_tool_result',
  'compute_stop_wake',
  'compute_cooldown',
  'session_transition',
];

describe('NdfcEvent', () => {
  const startHost = useNdfcHost();

  it('[N-12] has exactly the 17 values of the seed, each the full prefixed name, members named after the seam', () => {
    expect(Object.values(NdfcEvent)).toEqual(SEAMS.map((seam) => `neo_default_chatter:${seam}`));
    for (const seam of SEAMS) expect(NdfcEvent[seam.toUpperCase() as keyof typeof NdfcEvent]).toBe(`neo_default_chatter:${seam}`);
    expectTypeOf<NdfcEvent>().toEqualTypeOf<keyof NdfcEventPayloads>();
    expectTypeOf<EventParams<typeof NdfcEvent.FETCH_UNREADS>>().toEqualTypeOf<FetchUnreadsPayload>();
  });

  it('[N-03] a handler subscribed by member and one subscribed by string value are on the same event', async () => {
    const { register } = await startHost();
    const seen: string[] = [];

    @eventHandler({ name: 'by_member', subscribe: [NdfcEvent.FETCH_UNREADS], weight: 200 })
    class ByMember extends BaseEventHandler {
      execute(event: string, params: Record<string, unknown>) {
        seen.push(`member:${event}`);
        return [EventDecision.PASS, params] as const;
      }
    }
    @eventHandler({ name: 'by_string', subscribe: ['neo_default_chatter:fetch_unreads'], weight: 100 })
    class ByString extends BaseEventHandler {
      execute(event: string, params: Record<string, unknown>) {
        seen.push(`string:${event}`);
        return [EventDecision.PASS, params] as const;
      }
    }
    @eventHandler({ name: 'by_both', subscribe: [NdfcEvent.FETCH_UNREADS, 'neo_default_chatter:fetch_unreads'], weight: 50 })
    class ByBoth extends BaseEventHandler {
      execute(event: string, params: Record<string, unknown>) {
        seen.push(`both:${event}`);
        return [EventDecision.PASS, params] as const;
      }
    }
    register(ByMember, ByString, ByBoth);

    await publishEvent('neo_default_chatter:fetch_unreads', { stream_id: 's1', messages: [] });
    await publishEvent(NdfcEvent.FETCH_UNREADS, { stream_id: 's1', messages: [] });
    const once = ['member', 'string', 'both'].map((who) => `${who}:neo_default_chatter:fetch_unreads`);
    expect(seen).toEqual([...once, ...once]); // the handler listing both is subscribed once
  });
});

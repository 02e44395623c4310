import { describe, expect, it } from 'vitest';
import type { ChatRuntime } from '../../../src/chatter/chat-runtime.js';
import { eventHandler } from '../../../src/kernel/components/decorators.js';
import { BaseEventHandler } from '../../../src/kernel/event-bus/base-event-handler.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import { TOKENS } from '../../../src/kernel/tokens.js';
import { DEFAULT_HANDLERS } from '../../../src/plugins/built_in/neo_default_chatter/defaults/default-handlers.js';
import { NEGATIVE_BEHAVIORS } from '../../../src/plugins/built_in/neo_default_chatter/defaults/negative-behaviors.js';
import { NdfcEvent } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-event.js';
import type { BuildNegativeExtraPayload, ComputeCooldownPayload } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-payloads.js';
import { NdfcPublisher } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-publisher.js';
import { ndfcConfig, useNdfcHost } from './ndfc-test-host.js';

type Cooldown = typeof NdfcEvent.COMPUTE_COOLDOWN;
type Negative = typeof NdfcEvent.BUILD_NEGATIVE_EXTRA;

function appender(name: string, weight: number, fragment: string) {
  @eventHandler({ name, subscribe: [NdfcEvent.BUILD_NEGATIVE_EXTRA], weight })
  class Appender extends BaseEventHandler<Negative> {
    execute(_event: Negative, params: BuildNegativeExtraPayload) {
      const next: BuildNegativeExtraPayload = { ...params, fragments: [...params.fragments, fragment] };
      return [EventDecision.SUCCESS, next] as const;
    }
  }
  return Appender;
}

describe('the bus rules on NDFC events', () => {
  const startHost = useNdfcHost();

  it('[N-11] [N-41] a STOP at weight 200 replaces the default compute_cooldown, and the publisher reads its value back', async () => {
    const ndfc = await startHost({ defaults: true });
    @eventHandler({ name: 'fixed_cooldown', subscribe: [NdfcEvent.COMPUTE_COOLDOWN], weight: 200 })
    class FixedCooldown extends BaseEventHandler<Cooldown> {
      execute(_event: Cooldown, params: ComputeCooldownPayload) {
        return [EventDecision.STOP, { ...params, cooldown_seconds: 999 }] as const;
      }
    }
    ndfc.registerAs('third', FixedCooldown);
    expect(await NdfcPublisher.computeCooldown('s1', 5, ndfcConfig())).toBe(999);
  });

  it('[N-11] SUCCESS handlers at weights 300 and 100 append to fragments before the default, highest weight first, each seeing the previous output', async () => {
    const ndfc = await startHost({ defaults: true });
    ndfc.registerAs('low', appender('low_weight', 100, '低'));
    ndfc.registerAs('high', appender('high_weight', 300, '高'));
    expect(await NdfcPublisher.buildNegativeExtra('s1', ndfcConfig())).toEqual(['高', '低', ...NEGATIVE_BEHAVIORS]);
  });

  it('[N-40] handlers of the same weight run in subscription order', async () => {
    const ndfc = await startHost({ defaults: true });
    ndfc.registerAs('first', appender('first', 100, '一'));
    ndfc.registerAs('second', appender('second', 100, '二'));
    ndfc.registerAs('third', appender('third', 100, '三'));
    expect((await NdfcPublisher.buildNegativeExtra('s1', ndfcConfig())).slice(0, 3)).toEqual(['一', '二', '三']);
  });

  it('[N-11] [N-37] [N-38] a PASS observer, a handler adding a key, one removing a key and one that throws all leave the default\'s 300', async () => {
    const ndfc = await startHost({ defaults: true });
    const observed: number[] = [];
    @eventHandler({ name: 'observer', subscribe: [NdfcEvent.COMPUTE_COOLDOWN], weight: 1000 })
    class Observer extends BaseEventHandler<Cooldown> {
      execute(_event: Cooldown, params: ComputeCooldownPayload) {
        observed.push(params.minutes);
        return [EventDecision.PASS, { ...params, cooldown_seconds: 1 }] as const;
      }
    }
    @eventHandler({ name: 'adds_key', subscribe: [NdfcEvent.COMPUTE_COOLDOWN], weight: 500 })
    class AddsKey extends BaseEventHandler<Cooldown> {
      execute(_event: Cooldown, params: ComputeCooldownPayload) {
        return [EventDecision.STOP, { ...params, cooldown_seconds: 2, note: 'x' } as ComputeCooldownPayload] as const;
      }
    }
    @eventHandler({ name: 'removes_key', subscribe: [NdfcEvent.COMPUTE_COOLDOWN], weight: 450 })
    class RemovesKey extends BaseEventHandler<Cooldown> {
      execute(_event: Cooldown, params: ComputeCooldownPayload) {
        const { config: _config, ...rest } = params;
        return [EventDecision.STOP, { ...rest, cooldown_seconds: 3 } as ComputeCooldownPayload] as const;
      }
    }
    @eventHandler({ name: 'throws', subscribe: [NdfcEvent.COMPUTE_COOLDOWN], weight: 400 })
    class Throws extends BaseEventHandler<Cooldown> {
      execute(): never {
        throw new Error('boom');
      }
    }
    ndfc.registerAs('third', Observer, AddsKey, RemovesKey, Throws);
    expect(await NdfcPublisher.computeCooldown('s1', 5, ndfcConfig())).toBe(300);
    expect(observed).toEqual([5]);
    const warnings = ndfc.records.filter((record) => record.level === 'warn' && record.event === NdfcEvent.COMPUTE_COOLDOWN);
    expect(warnings.map((record) => [record.handler, record['added_keys'], record['removed_keys']])).toEqual([
      ['third:event_handler:adds_key', ['note'], []],
      ['third:event_handler:removes_key', [], ['config']],
      ['third:event_handler:throws', undefined, undefined],
    ]);
    expect(warnings[2]!.msg).toContain('threw; counts as PASS');
  });

  it('[N-42] changes to shared payload objects take effect whatever the decision (seen_signatures, response)', async () => {
    const ndfc = await startHost({ defaults: true });
    ndfc.host.bus.subscribe(NdfcEvent.DEDUPE_TOOL_CALL, (_name, params) => {
      params.seen_signatures.add('observer-was-here');
      return [EventDecision.PASS, params];
    }, { weight: 100 });
    ndfc.host.bus.subscribe(NdfcEvent.INJECT_UNREAD_PAYLOAD, (_name, params) => {
      if ('addPayload' in params.response) params.response.addPayload({ role: 'user', content: '第三方补充' });
      return [EventDecision.STOP, { ...params, skip: true }];
    }, { weight: 100 });
    const seen = new Set<string>();
    await NdfcPublisher.dedupeToolCall('s1', { id: 'c1', name: 'send_text', args: { content: 'x' } }, seen);
    expect([...seen]).toEqual(['observer-was-here', 'send_text:{"content":"x"}']);
    const request = ndfc.runtime.createRequest('s1', 'actor');
    expect(await NdfcPublisher.injectUnreadPayload('s1', request, '默认内容', [], false)).toBe(true);
    expect(request.payloads).toEqual([{ role: 'user', content: '第三方补充' }]);
  });

  it('[N-38] default handlers catch their own failures: the session reads the pre-filled default, and the failure is logged', async () => {
    const ndfc = await startHost();
    const broken: ChatRuntime = {
      ...ndfc.runtime,
      streams: { ...ndfc.runtime.streams, fetchUnreads: () => { throw new Error('storage gone'); } },
      createRequest: () => { throw new Error('no models'); },
      runToolCalls: async () => { throw new Error('tools gone'); },
    };
    ndfc.host.registry.override(TOKENS.ChatRuntime, { useValue: broken });
    ndfc.register(...DEFAULT_HANDLERS);
    expect(await NdfcPublisher.fetchUnreads('s1')).toEqual([]);
    expect(await NdfcPublisher.createRequest('s1', 'actor')).toBeNull();
    const failures = ndfc.records.filter((record) => record.level === 'warn' && String(record.msg).endsWith('the session reads the pre-filled default'));
    expect(failures.map((record) => [record.handler, record.error])).toEqual([
      ['fetch_unreads_default', 'storage gone'],
      ['create_request_default', 'no models'],
    ]);
  });
});

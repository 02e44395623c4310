import { describe, expect, it } from 'vitest';
import { chatter, eventHandler, service } from '../../../src/kernel/components/decorators.js';
import { BaseEventHandler } from '../../../src/kernel/event-bus/base-event-handler.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import { BindingOverrideError } from '../../../src/kernel/errors/binding-override-error.js';
import { catchError } from '../../support/catch-error.js';
import { createTestRegistry } from '../../support/registry.js';

@service('core')
class Core {}

@eventHandler({ name: 'tag', subscribe: ['tagging'] })
class Tag extends BaseEventHandler {
  execute(_event: string, params: Record<string, unknown>) {
    return [EventDecision.SUCCESS, { ...params, tag: 'original' }] as const;
  }
}

/** A registry with a service and a handler, and an earlier override of the service that must keep working. */
function withEarlierOverride() {
  const test = createTestRegistry();
  const p = test.scope('p');
  test.registry.register(p, Core);
  test.registry.register(p, Tag);
  const earlier = test.registry.override('p:service:core', { useValue: 'earlier' });
  const snapshot = () => ({
    core: test.registry.get('p:service:core'),
    coreRecord: test.registry.record('p:service:core'),
    tagRecord: test.registry.record('p:event_handler:tag'),
    list: test.registry.list(),
  });
  return { ...test, earlier, before: snapshot(), snapshot };
}

describe('ComponentRegistry.override: checked before it binds', () => {
  const refusals: [string, (registry: ReturnType<typeof createTestRegistry>['registry']) => unknown, RegExp][] = [
    [
      'a class of the wrong kind',
      (registry) => {
        @chatter('core')
        class NotAService {}
        return registry.override('p:service:core', { useClass: NotAService });
      },
      /cannot override p:service:core: it is a service and NotAService is declared as a chatter/,
    ],
    [
      'an event handler without execute',
      (registry) => {
        @eventHandler({ name: 'tag', subscribe: ['tagging'] })
        class NoExecute {}
        return registry.override('p:event_handler:tag', { useClass: NoExecute });
      },
      /cannot override p:event_handler:tag: the override cannot stand in for it: .*execute/,
    ],
    ['a value without execute for an event handler', (registry) => registry.override('p:event_handler:tag', { useValue: {} }), /cannot override p:event_handler:tag/],
    ['a signature nothing is bound to', (registry) => registry.override('p:service:ghost', { useValue: 1 }), /cannot override p:service:ghost: nothing is bound to it/],
    ['a target that is none of useClass, useValue, useFactory', (registry) => registry.override('p:service:core', {} as never), /must have useClass, useValue, useFactory or wrap/],
  ];

  for (const [what, attempt, reason] of refusals) {
    it(`refuses ${what}, says why, and leaves getService, record() and the other overrides as they were`, async () => {
      const { registry, bus, earlier, before, snapshot } = withEarlierOverride();
      const error = catchError(() => attempt(registry));
      expect(error).toBeInstanceOf(BindingOverrideError);
      expect((error as Error).message).toMatch(reason);
      expect(snapshot()).toEqual(before);
      expect((await bus.publish('tagging', { tag: '' })).params.tag).toBe('original');
      earlier();
      expect(registry.get('p:service:core')).toBeInstanceOf(Core);
    });
  }

  it('keeps the handler subscription on the same instance when its override is refused', async () => {
    const { registry, bus } = withEarlierOverride();
    const good = registry.override('p:event_handler:tag', {
      useValue: { execute: (_event: string, params: Record<string, unknown>) => [EventDecision.SUCCESS, { ...params, tag: 'good' }] },
    });
    expect(() => registry.override('p:event_handler:tag', { useValue: { execute: 'no' } })).toThrow(BindingOverrideError);
    expect((await bus.publish('tagging', { tag: '' })).params.tag).toBe('good');
    good();
    expect((await bus.publish('tagging', { tag: '' })).params.tag).toBe('original');
  });

  it('refuses a tool signature with the reason: the model calls tools through the tool registry, not the container', () => {
    const { registry, scope } = createTestRegistry();
    const definition = { name: 'weather', description: 'the weather' };
    registry.registerTool(scope('p'), definition, Core);
    const error = catchError(() => registry.override('p:tool:weather', { useValue: { name: 'weather', description: 'fake' } }));
    expect(error).toBeInstanceOf(BindingOverrideError);
    expect((error as Error).message).toMatch(/cannot override p:tool:weather: a tool is called through the tool registry, not the container; register a tool of another name, or change or refuse the call in a before_tool_call handler/);
    expect(registry.get('p:tool:weather')).toBe(definition);
  });
});

import { inject } from 'inversify';
import { describe, expect, it } from 'vitest';
import { eventHandler, service, action, chatter } from '../../../src/kernel/components/decorators.js';
import { BaseEventHandler } from '../../../src/kernel/event-bus/base-event-handler.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import { BindingOverrideError } from '../../../src/kernel/errors/binding-override-error.js';
import { ComponentDeclarationError } from '../../../src/kernel/errors/component-declaration-error.js';
import { ComponentResolutionError } from '../../../src/kernel/errors/component-resolution-error.js';
import { ScopeInactiveError } from '../../../src/kernel/errors/scope-inactive-error.js';
import { SignatureCollisionError } from '../../../src/kernel/errors/signature-collision-error.js';
import { SignatureError } from '../../../src/kernel/errors/signature-error.js';
import type { Logger } from '../../../src/kernel/logger/logger.js';
import type { Clock } from '../../../src/kernel/time/clock.js';
import { TOKENS } from '../../../src/kernel/tokens.js';
import { createTestRegistry } from '../../support/registry.js';

@service('chat_core')
class ChatCore {
  static built = 0;
  readonly serial = ++ChatCore.built;
}

@service('chat_core')
class OtherChatCore {}

describe('ComponentRegistry', () => {
  describe('.register', () => {
    it('binds a component under <plugin>:<kind>:<name> and hands out a new instance on every get', () => {
      const { registry, scope } = createTestRegistry();
      registry.register(scope('neo_default_chatter'), ChatCore);
      const first = registry.get<ChatCore>('neo_default_chatter:service:chat_core');
      const second = registry.get<ChatCore>('neo_default_chatter:service:chat_core');
      expect(first).toBeInstanceOf(ChatCore);
      expect(second).toBeInstanceOf(ChatCore);
      expect(first).not.toBe(second);
    });

    it('refuses a signature collision and names both plugins', () => {
      const { registry, scope } = createTestRegistry();
      registry.register(scope('alpha'), ChatCore);
      registry.register(scope('beta'), OtherChatCore);
      const collide = () => registry.register(scope('alpha'), OtherChatCore);
      expect(collide).toThrow(SignatureCollisionError);
      expect(collide).toThrow(
        /"alpha:service:chat_core" is already registered by plugin "alpha" \(class ChatCore\); plugin "alpha" \(class OtherChatCore\) cannot/,
      );
      expect(registry.get('alpha:service:chat_core')).toBeInstanceOf(ChatCore);
    });

    it('names the owner that holds the signature when another plugin claims it', () => {
      const { registry, scope } = createTestRegistry();
      const owner = scope('owner');
      registry.register(owner, ChatCore);
      // Two scopes with the same id stand for a second plugin claiming the same id.
      const error = (() => {
        try {
          registry.register(scope('owner'), OtherChatCore);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(SignatureCollisionError);
      expect(error).toMatchObject({ signature: 'owner:service:chat_core', existingOwner: 'owner', newOwner: 'owner' });
    });

    it('refuses an undecorated class with a message that says which decorators exist', () => {
      const { registry, scope } = createTestRegistry();
      class Plain {}
      expect(() => registry.register(scope('p'), Plain)).toThrow(ComponentDeclarationError);
      expect(() => registry.register(scope('p'), Plain)).toThrow(/Plain: decorator is missing: decorate the class with @service/);
    });

    it('refuses to register on a disposed scope', () => {
      const { registry, scope } = createTestRegistry();
      const dead = scope('p');
      dead.dispose();
      expect(() => registry.register(dead, ChatCore)).toThrow(ScopeInactiveError);
      expect(registry.get('p:service:chat_core')).toBeUndefined();
    });

    it('returns a disposer that unbinds, safe to call twice, and lets the signature be registered again', () => {
      const { registry, scope } = createTestRegistry();
      const owner = scope('p');
      const dispose = registry.register(owner, ChatCore);
      dispose();
      dispose();
      expect(registry.get('p:service:chat_core')).toBeUndefined();
      expect(owner.effects()).toEqual([]);
      registry.register(scope('p'), OtherChatCore);
      expect(registry.get('p:service:chat_core')).toBeInstanceOf(OtherChatCore);
    });

    it('unbinds every component of a plugin when its scope is disposed, newest first', () => {
      const { registry, scope } = createTestRegistry();
      const owner = scope('p');
      registry.register(owner, ChatCore);
      @action('send_text', { description: 'Send a text message to the chat.' })
      class SendText {}
      registry.register(owner, SendText);
      expect(owner.effects()).toEqual(['component p:service:chat_core', 'component p:action:send_text']);
      owner.dispose();
      expect(registry.list()).toEqual([]);
      expect(registry.get('p:action:send_text')).toBeUndefined();
    });
  });

  describe('.get', () => {
    it('returns undefined for a well-formed signature nobody bound', () => {
      const { registry } = createTestRegistry();
      expect(registry.get('nobody:service:nothing')).toBeUndefined();
    });

    it('throws a SignatureError naming the bad part for a malformed signature', () => {
      const { registry } = createTestRegistry();
      expect(() => registry.get('just-a-name')).toThrow(SignatureError);
      expect(() => registry.get('p:widget:x')).toThrow(/kind "widget" is not one of service, action/);
    });

    it('wraps a constructor failure in ComponentResolutionError naming the signature', () => {
      const { registry, scope } = createTestRegistry();
      @service('broken')
      class Broken {
        constructor() {
          throw new Error('no database');
        }
      }
      registry.register(scope('p'), Broken);
      expect(() => registry.get('p:service:broken')).toThrow(ComponentResolutionError);
      expect(() => registry.get('p:service:broken')).toThrow(/cannot build component "p:service:broken": Error: no database/);
    });
  });

  describe('.list', () => {
    it('lists components by kind and by plugin, in registration order', () => {
      const { registry, scope } = createTestRegistry();
      @action('a1', { description: 'first action' })
      class A1 {}
      @chatter('talk')
      class Talk {}
      registry.register(scope('one'), ChatCore);
      registry.register(scope('one'), A1);
      registry.register(scope('two'), Talk);
      registry.register(scope('two'), OtherChatCore);
      expect(registry.list().map((record) => record.signature)).toEqual([
        'one:service:chat_core',
        'one:action:a1',
        'two:chatter:talk',
        'two:service:chat_core',
      ]);
      expect(registry.list({ kind: 'service' }).map((record) => record.signature)).toEqual(['one:service:chat_core', 'two:service:chat_core']);
      expect(registry.list({ pluginId: 'two' }).map((record) => record.name)).toEqual(['talk', 'chat_core']);
      expect(registry.list({ kind: 'action', pluginId: 'two' })).toEqual([]);
      expect(registry.record('one:action:a1')).toMatchObject({ kind: 'action', pluginId: 'one', componentClass: A1 });
    });
  });

  describe('plugin-scoped tokens', () => {
    it('injects the owning plugin and its child logger into each plugin’s components', () => {
      const { registry, scope, logger } = createTestRegistry();
      @service('who')
      class Who {
        constructor(
          @inject(TOKENS.Plugin) readonly plugin: { id: string },
          @inject(TOKENS.Logger) readonly log: Logger,
        ) {}
      }
      @service('who')
      class WhoToo {
        constructor(@inject(TOKENS.Plugin) readonly plugin: { id: string }) {}
      }
      const alpha = scope('alpha');
      const beta = scope('beta');
      const alphaLogger = logger.child({ plugin: 'alpha' });
      registry.attachPlugin(alpha, { id: 'alpha' }, alphaLogger);
      registry.attachPlugin(beta, { id: 'beta' }, logger.child({ plugin: 'beta' }));
      registry.register(alpha, Who);
      registry.register(beta, WhoToo);
      const fromAlpha = registry.get<Who>('alpha:service:who')!;
      expect(fromAlpha.plugin).toEqual({ id: 'alpha' });
      expect(fromAlpha.log).toBe(alphaLogger);
      expect(registry.get<WhoToo>('beta:service:who')!.plugin).toEqual({ id: 'beta' });
    });

    it('resolves a dependency’s plugin token to the dependency’s own plugin', () => {
      const { registry, scope, logger } = createTestRegistry();
      @service('store')
      class Store {
        constructor(@inject(TOKENS.Plugin) readonly plugin: { id: string }) {}
      }
      @service('user')
      class User {
        constructor(
          @inject(TOKENS.Plugin) readonly plugin: { id: string },
          @inject('provider:service:store') readonly store: Store,
        ) {}
      }
      const provider = scope('provider');
      const consumer = scope('consumer');
      registry.attachPlugin(provider, { id: 'provider' }, logger);
      registry.attachPlugin(consumer, { id: 'consumer' }, logger);
      registry.register(provider, Store);
      registry.register(consumer, User);
      const user = registry.get<User>('consumer:service:user')!;
      expect(user.plugin.id).toBe('consumer');
      expect(user.store.plugin.id).toBe('provider');
    });

    it('gives components of unattached plugins the host logger, and detaches on dispose', () => {
      const { registry, scope, logger } = createTestRegistry();
      @service('logs')
      class Logs {
        constructor(@inject(TOKENS.Logger) readonly log: Logger) {}
      }
      const owner = scope('p');
      registry.register(owner, Logs);
      expect(registry.get<Logs>('p:service:logs')!.log).toBe(logger);
      const pluginLog = logger.child({ plugin: 'p' });
      const detach = registry.attachPlugin(owner, { id: 'p' }, pluginLog);
      expect(registry.get<Logs>('p:service:logs')!.log).toBe(pluginLog);
      detach();
      expect(registry.get<Logs>('p:service:logs')!.log).toBe(logger);
    });
  });

  describe('.override', () => {
    it('makes get return the override, and restores the original when disposed', () => {
      const { registry, scope } = createTestRegistry();
      registry.register(scope('p'), ChatCore);
      @service('chat_core')
      class FakeChatCore {}
      const restore = registry.override('p:service:chat_core', { useClass: FakeChatCore });
      expect(registry.get('p:service:chat_core')).toBeInstanceOf(FakeChatCore);
      expect(registry.get('p:service:chat_core')).not.toBe(registry.get('p:service:chat_core'));
      restore();
      restore();
      expect(registry.get('p:service:chat_core')).toBeInstanceOf(ChatCore);
    });

    it('stacks overrides: undoing an inner one while an outer one is active keeps the outer', () => {
      const { registry, scope } = createTestRegistry();
      registry.register(scope('p'), ChatCore);
      const first = registry.override('p:service:chat_core', { useValue: 'first' });
      const second = registry.override('p:service:chat_core', { useFactory: () => 'second' });
      first();
      expect(registry.get('p:service:chat_core')).toBe('second');
      second();
      expect(registry.get('p:service:chat_core')).toBeInstanceOf(ChatCore);
    });

    it('overrides a core token, and components built afterwards receive the override', () => {
      const { registry, scope } = createTestRegistry();
      const realClock = { now: () => 1 } as unknown as Clock;
      const fakeClock = { now: () => 2 } as unknown as Clock;
      registry.bindCore(TOKENS.Clock, realClock);
      @service('timed')
      class Timed {
        constructor(@inject(TOKENS.Clock) readonly clock: Clock) {}
      }
      registry.register(scope('p'), Timed);
      const restore = registry.override(TOKENS.Clock, { useValue: fakeClock });
      expect(registry.get<Timed>('p:service:timed')!.clock.now()).toBe(2);
      restore();
      expect(registry.get<Timed>('p:service:timed')!.clock.now()).toBe(1);
    });

    it('refuses to override what is not bound, and the per-plugin tokens', () => {
      const { registry } = createTestRegistry();
      expect(() => registry.override('p:service:ghost', { useValue: 1 })).toThrow(BindingOverrideError);
      expect(() => registry.override('p:service:ghost', { useValue: 1 })).toThrow(/nothing is bound to it/);
      expect(() => registry.override(TOKENS.Plugin, { useValue: 1 })).toThrow(/resolves per plugin/);
      expect(() => registry.bindCore(TOKENS.Logger, 1)).toThrow(/bound per plugin/);
    });

    it('swaps the instance behind an event handler subscription, and back', async () => {
      const { registry, scope, bus } = createTestRegistry();
      @eventHandler({ name: 'tag', subscribe: ['tagging'] })
      class Tag extends BaseEventHandler {
        execute(_event: string, params: Record<string, unknown>) {
          return [EventDecision.SUCCESS, { ...params, tag: 'original' }] as const;
        }
      }
      @eventHandler({ name: 'tag', subscribe: ['tagging'] })
      class TagOverride extends BaseEventHandler {
        execute(_event: string, params: Record<string, unknown>) {
          return [EventDecision.SUCCESS, { ...params, tag: 'override' }] as const;
        }
      }
      registry.register(scope('p'), Tag);
      const restore = registry.override('p:event_handler:tag', { useClass: TagOverride });
      expect((await bus.publish('tagging', { tag: '' })).params.tag).toBe('override');
      restore();
      expect((await bus.publish('tagging', { tag: '' })).params.tag).toBe('original');
    });
  });

  describe('event handlers', () => {
    @eventHandler({ name: 'double', subscribe: ['calc', 'calc_again'], weight: 50, timeout: 0 })
    class Double extends BaseEventHandler<'calc'> {
      execute(_event: 'calc', params: Record<string, unknown>) {
        return [EventDecision.SUCCESS, { ...params, v: (params['v'] as number) * 2 }] as const;
      }
    }

    it('subscribes a registered handler to each of its events with its weight, timeout and signature', async () => {
      const { registry, scope, bus } = createTestRegistry();
      registry.register(scope('math'), Double);
      expect((await bus.publish('calc', { v: 2 })).params).toEqual({ v: 4 });
      expect((await bus.publish('calc_again', { v: 3 })).params).toEqual({ v: 6 });
      expect(bus.subscribers('calc')).toMatchObject([{ label: 'math:event_handler:double', owner: 'math', weight: 50, timeout: 0 }]);
    });

    it('unsubscribes the handler when its plugin scope is disposed', async () => {
      const { registry, scope, bus } = createTestRegistry();
      const owner = scope('math');
      registry.register(owner, Double);
      owner.dispose();
      expect(bus.subscribers('calc')).toEqual([]);
      expect((await bus.publish('calc', { v: 2 })).params).toEqual({ v: 2 });
    });

    it('refuses a handler class without execute and leaves nothing bound', () => {
      const { registry, scope, bus } = createTestRegistry();
      @eventHandler({ name: 'mute', subscribe: ['calc'] })
      class Mute {}
      expect(() => registry.register(scope('p'), Mute)).toThrow(/execute is missing/);
      expect(registry.get('p:event_handler:mute')).toBeUndefined();
      expect(bus.subscribers('calc')).toEqual([]);
    });
  });
});

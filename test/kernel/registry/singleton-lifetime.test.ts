import { describe, expect, it } from 'vitest';
import { ComponentDeclarationError, service } from 'moonglass';
import { createTestRegistry } from '../../support/registry.js';

// Issue 14, item 6: what an override of a singleton's signature is, and what a bad lifetime is.

describe('ComponentRegistry with singleton components', () => {
  describe('.override', () => {
    it('[issue 14.6] having a singleton, a class override is a singleton too, the replaced instance is disposed, and undoing it builds a fresh original', () => {
      const disposed: string[] = [];
      @service('cache', { lifetime: 'singleton' })
      class Cache {
        dispose(): void {
          disposed.push('original');
        }
      }
      class FasterCache {
        [Symbol.dispose](): void {
          disposed.push('override');
        }
      }
      const { registry, scope } = createTestRegistry();
      registry.register(scope('store'), Cache);
      const original = registry.get('store:service:cache');

      const undo = registry.override('store:service:cache', { useClass: FasterCache });
      expect(disposed).toEqual(['original']);
      const faster = registry.get('store:service:cache');
      expect(faster).toBeInstanceOf(FasterCache);
      expect(registry.get('store:service:cache')).toBe(faster);

      undo();
      expect(disposed).toEqual(['original', 'override']);
      const fresh = registry.get('store:service:cache');
      expect(fresh).toBeInstanceOf(Cache);
      expect(fresh).not.toBe(original);
      expect(registry.get('store:service:cache')).toBe(fresh);
    });

    it('[issue 14.6] having a singleton, a factory override runs its factory once', () => {
      @service('cache', { lifetime: 'singleton' })
      class Cache {}
      const { registry, scope } = createTestRegistry();
      registry.register(scope('store'), Cache);
      let calls = 0;
      registry.override('store:service:cache', { useFactory: () => ({ call: ++calls }) });
      expect(registry.get('store:service:cache')).toBe(registry.get('store:service:cache'));
      expect(calls).toBe(1);
    });

    it('[issue 14.6] a dispose that throws is logged with the signature, and unloading goes on', () => {
      @service('cache', { lifetime: 'singleton' })
      class Cache {
        dispose(): void {
          throw new Error('socket already closed');
        }
      }
      const { registry, scope, records } = createTestRegistry();
      const store = scope('store');
      registry.register(store, Cache);
      registry.get('store:service:cache');
      expect(store.dispose()).toBe(0);
      expect(registry.get('store:service:cache')).toBeUndefined();
      expect(records.find((record) => record.msg === 'disposing the singleton store:service:cache failed; unloading goes on')).toMatchObject({
        error: 'Error: socket already closed',
      });
    });
  });

  describe('decorators', () => {
    it('[issue 14.6] refuse a lifetime that is neither transient nor singleton, naming the class', () => {
      const declare = () => {
        @service('cache', { lifetime: 'forever' as never })
        class Cache {}
        return Cache;
      };
      expect(declare).toThrow(ComponentDeclarationError);
      expect(declare).toThrow('component class Cache: lifetime must be "transient" or "singleton", got "forever"');
    });
  });
});

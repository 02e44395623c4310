import { describe, expect, it } from 'vitest';
import { inject, optional, service } from 'moonglass';
import { createTestRegistry } from '../../support/registry.js';

// Issue 14, item 5: an @optional() injection gets undefined instead of an error when nothing is bound.

@service('weather')
class Weather {
  constructor(@inject('forecast:service:radar') @optional() readonly radar: { scan(): string } | undefined) {}
}

describe('ComponentRegistry', () => {
  describe('.get', () => {
    it('[issue 14.5] having an @optional() injection that nothing provides, builds the component with undefined there', () => {
      const { registry, scope } = createTestRegistry();
      registry.register(scope('weather'), Weather);
      expect(registry.get<Weather>('weather:service:weather')!.radar).toBeUndefined();
    });

    it('[issue 14.5] having an @optional() injection, gets the provider once one is registered', () => {
      @service('radar')
      class Radar {
        scan(): string {
          return 'clear';
        }
      }
      const { registry, scope } = createTestRegistry();
      registry.register(scope('weather'), Weather);
      registry.get('weather:service:weather');
      registry.register(scope('forecast'), Radar);
      expect(registry.get<Weather>('weather:service:weather')!.radar?.scan()).toBe('clear');
    });
  });
});

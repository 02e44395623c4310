import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { PluginScope } from '../../../src/kernel/scope/plugin-scope.js';
import { ScopeInactiveError } from '../../../src/kernel/errors/scope-inactive-error.js';

describe('PluginScope', () => {
  it('disposes effects newest first, once each', () => {
    const { logger } = createMemoryLogger();
    const scope = new PluginScope('p', logger);
    const order: string[] = [];
    scope.effect('binding', () => order.push('binding'));
    scope.effect('subscription', () => order.push('subscription'));
    const timer = scope.effect('timer', () => order.push('timer'));
    timer();
    timer();
    expect(scope.effects()).toEqual(['binding', 'subscription']);
    expect(scope.dispose()).toBe(0);
    expect(scope.dispose()).toBe(0);
    expect(order).toEqual(['timer', 'subscription', 'binding']);
  });

  it('logs a failing disposer with its label and goes on with the others', () => {
    const { logger, records } = createMemoryLogger();
    const scope = new PluginScope('p', logger);
    const order: string[] = [];
    scope.effect('first', () => order.push('first'));
    scope.effect('broken', () => {
      throw new Error('socket already closed');
    });
    scope.effect('last', () => order.push('last'));
    expect(scope.dispose()).toBe(1);
    expect(order).toEqual(['last', 'first']);
    expect(records.find((record) => record.level === 'error')).toMatchObject({ scope: 'p', effect: 'broken', error: 'Error: socket already closed' });
  });

  it('refuses new effects once disposed, naming the scope and the label', () => {
    const { logger } = createMemoryLogger();
    const scope = new PluginScope('weather', logger);
    scope.dispose();
    expect(scope.active).toBe(false);
    expect(() => scope.effect('bus.on("on_prompt_build")', () => undefined)).toThrow(ScopeInactiveError);
    expect(() => scope.effect('bus.on("on_prompt_build")', () => undefined)).toThrow(
      /plugin scope "weather" is disposed; cannot register "bus.on\("on_prompt_build"\)"/,
    );
  });
});

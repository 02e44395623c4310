import { inject } from 'inversify';
import { describe, expect, it } from 'vitest';
import { service } from '../../../src/kernel/components/decorators.js';
import { BindingOverrideError } from '../../../src/kernel/errors/binding-override-error.js';
import { ComponentResolutionError } from '../../../src/kernel/errors/component-resolution-error.js';
import type { Logger } from '../../../src/kernel/logger/logger.js';
import { TOKENS } from '../../../src/kernel/tokens.js';
import { catchError } from '../../support/catch-error.js';
import { createTestRegistry } from '../../support/registry.js';

@service('who')
class Who {
  constructor(
    @inject(TOKENS.Plugin) readonly plugin: { id: string },
    @inject(TOKENS.Logger) readonly log: Logger,
  ) {}
}

@service('who')
class WhoOverride {
  constructor(
    @inject(TOKENS.Plugin) readonly plugin: { id: string },
    @inject(TOKENS.Logger) readonly log: Logger,
  ) {}
}

/** Two attached plugins, `owner` registering `owner:service:who` and `other` next to it. */
function twoPlugins() {
  const test = createTestRegistry();
  const owner = test.scope('owner');
  const other = test.scope('other');
  const ownerLog = test.logger.child({ plugin: 'owner' });
  const otherLog = test.logger.child({ plugin: 'other' });
  test.registry.attachPlugin(owner, { id: 'owner' }, ownerLog);
  test.registry.attachPlugin(other, { id: 'other' }, otherLog);
  test.registry.register(owner, Who);
  return { ...test, owner, other, ownerLog, otherLog };
}

describe('ComponentRegistry: a plugin identity comes from the scope that bound it', () => {
  it('gives an override class the overriding plugin and its logger, not the plugin named by the signature', () => {
    const { registry, other, otherLog } = twoPlugins();
    registry.override('owner:service:who', { useClass: WhoOverride }, other);
    const built = registry.get<WhoOverride>('owner:service:who')!;
    expect(built).toBeInstanceOf(WhoOverride);
    expect(built.plugin).toEqual({ id: 'other' });
    expect(built.log).toBe(otherLog);
  });

  it('gives the overridden plugin back once the overriding plugin unloads', () => {
    const { registry, other, ownerLog } = twoPlugins();
    registry.override('owner:service:who', { useClass: WhoOverride }, other);
    other.dispose();
    const built = registry.get<Who>('owner:service:who')!;
    expect(built).toBeInstanceOf(Who);
    expect(built.plugin).toEqual({ id: 'owner' });
    expect(built.log).toBe(ownerLog);
  });

  it('gives an override made without a scope no plugin at all: it is the host’s, whatever signature it sits under', () => {
    const { registry } = twoPlugins();
    registry.override('owner:service:who', { useClass: WhoOverride });
    expect(() => registry.get('owner:service:who')).toThrow(ComponentResolutionError);
  });

  it('refuses a hand-made scope under a loaded plugin’s id, naming the id and what it tried, and changes nothing', () => {
    const { registry, scope, container } = twoPlugins();
    const before = registry.list();
    @service('spy')
    class Spy {
      constructor(@inject(TOKENS.Plugin) readonly plugin: { id: string }) {}
    }
    const borrowed = scope('owner');
    const error = catchError(() => registry.register(borrowed, Spy));
    expect(error).toBeInstanceOf(BindingOverrideError);
    expect((error as Error).message).toMatch(/plugin "owner".*component owner:service:spy comes through a PluginScope\("owner"\) that the host did not create/);
    expect(registry.list()).toEqual(before);
    expect(registry.record('owner:service:spy')).toBeUndefined();
    expect(container.isBound('owner:service:spy')).toBe(false);
    expect(() => registry.registerTool(borrowed, { name: 'peek', description: 'd' }, Spy)).toThrow(/tool owner:tool:peek comes through a PluginScope\("owner"\)/);
    expect(() => registry.override('owner:service:who', { useClass: WhoOverride }, borrowed)).toThrow(/override owner:service:who comes through a PluginScope\("owner"\)/);
    expect(registry.get<Who>('owner:service:who')).toBeInstanceOf(Who);
    expect(borrowed.effects()).toEqual([]);
  });

  it('still lets a scope register under an id no loaded plugin holds', () => {
    const { registry, scope } = twoPlugins();
    @service('free')
    class Free {}
    registry.register(scope('nobody'), Free);
    expect(registry.get('nobody:service:free')).toBeInstanceOf(Free);
  });
});

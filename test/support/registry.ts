import { Container } from 'inversify';
import { ComponentRegistry } from '../../src/kernel/registry/component-registry.js';
import { PluginScope } from '../../src/kernel/scope/plugin-scope.js';
import { createTestBus } from './bus.js';

/** A registry over a fresh container with a test bus, plus a scope factory. */
export function createTestRegistry() {
  const testBus = createTestBus();
  const container = new Container();
  const registry = new ComponentRegistry({ container, bus: testBus.bus, logger: testBus.logger });
  const scope = (id: string) => new PluginScope(id, testBus.logger.child({ plugin: id }));
  return { ...testBus, registry, container, scope };
}

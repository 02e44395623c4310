import 'reflect-metadata';
import { inject } from 'inversify';
import { createHost } from '../src/app/create-host.js';
import { service } from '../src/kernel/components/decorators.js';
import type { Logger } from '../src/kernel/logger/logger.js';
import { createMemoryLogger } from '../src/kernel/logger/memory-logger.js';
import { getService } from '../src/kernel/runtime/module-api.js';
import type { Clock } from '../src/kernel/time/clock.js';
import { TOKENS } from '../src/kernel/tokens.js';
import type { PromptManager } from '../src/llm/prompt-manager.js';
import { type BenchCase, printTable, runInterleaved, samplesOf } from './harness.js';
import { judgeRatio } from './support/goal.js';

/** A typical service: two injected dependencies, one of them plugin-scoped. */
@service('chat_core')
class ChatCore {
  constructor(
    @inject(TOKENS.Logger) readonly logger: Logger,
    @inject(TOKENS.Clock) readonly clock: Clock,
  ) {}
}

const SIGNATURE = 'neo_default_chatter:service:chat_core';

export async function benchGetService(): Promise<boolean> {
  const { logger } = createMemoryLogger('error');
  const host = createHost({ logger, appConfig: {}, pluginRoots: [], database: 'memory' });
  await host.start();
  // Twenty plugins attached, as in a real bot, so the plugin-scoped tokens have rivals.
  for (let index = 0; index < 19; index += 1) {
    const scope = host.createScope(`plugin_${index}`);
    host.registry.attachPlugin(scope, { id: scope.id }, logger);
  }
  const scope = host.createScope('neo_default_chatter');
  host.registry.attachPlugin(scope, { id: scope.id }, logger);
  host.registry.register(scope, ChatCore);
  const { container, registry } = host;
  const clock = host.clock;

  const cases: BenchCase[] = [
    { name: 'new ChatCore(logger, clock)', fn: () => new ChatCore(logger, clock) },
    { name: 'getService(signature)', fn: () => getService(SIGNATURE) },
    { name: 'registry.get(signature)', fn: () => registry.get(SIGNATURE) },
    { name: 'container.get(signature)', fn: () => container.get(SIGNATURE) },
    { name: 'getService(missing signature)', fn: () => getService('nobody:service:missing') },
  ];
  // The hot path of a turn reads the clock, the storage and the prompts through their core
  // tokens: a facade that follows the binding, against the bound object itself.
  const boundClock = container.get<Clock>(TOKENS.Clock);
  const boundPrompts = container.get<PromptManager>(TOKENS.Prompts);
  const followedPrompts = host.chat.runtime.prompts;
  const tokenCases: BenchCase[] = [
    { name: 'bound clock.now()', fn: () => boundClock.now() },
    { name: 'host.clock.now() (follows TOKENS.Clock)', fn: () => host.clock.now() },
    { name: 'bound prompts.has()', fn: () => boundPrompts.has('ndfc.system') },
    { name: 'runtime.prompts.has() (follows TOKENS.Prompts)', fn: () => followedPrompts.has('ndfc.system') },
    { name: 'registry.core(TOKENS.Storage)', fn: () => registry.core(TOKENS.Storage) },
  ];
  const results = await runInterleaved(cases, { batch: 200_000, rounds: 20 });
  const tokenResults = await runInterleaved(tokenCases, { batch: 200_000, rounds: 20 });
  await host.stop();
  printTable('core services through their tokens against the bound object', tokenResults, (name) =>
    name.startsWith('host.clock') ? 'bound clock.now()' : name.startsWith('runtime.prompts') ? 'bound prompts.has()' : undefined,
  );
  printTable('getService against raw container.get of the same binding', results, (name) =>
    name.startsWith('new') || name.startsWith('container') ? undefined : 'container.get(signature)',
  );
  const get = (name: string) => results.find((result) => result.name === name)!.nsPerOp;
  console.log(`  container.get / new: ${(get('container.get(signature)') / get('new ChatCore(logger, clock)')).toFixed(1)}x (the cost of DI itself)`);
  return judgeRatio({
    label: 'getService(signature)',
    measured: samplesOf(results, 'getService(signature)'),
    baseline: samplesOf(results, 'container.get(signature)'),
    of: 'container.get of the same binding',
    atMost: 1.3,
  });
}

import { createMemoryLogger } from '../src/kernel/logger/memory-logger.js';
import { EventBus } from '../src/kernel/event-bus/event-bus.js';
import { EventDecision } from '../src/kernel/event-bus/event-decision.js';
import { systemClock } from '../src/kernel/time/clock.js';
import { createHost } from '../src/app/create-host.js';
import { publishEvent } from '../src/kernel/runtime/module-api.js';
import { type BenchCase, printTable, runInterleaved, samplesOf } from './harness.js';
import { judgeRatio } from './support/goal.js';

type Params = Record<string, unknown>;
type Handler = (eventName: string, params: Params) => Promise<readonly [EventDecision, Params]>;

/** A handler like most real ones: async, reads a field, returns SUCCESS with the params. */
function makeHandler(index: number): Handler {
  return async (_eventName, params) => {
    params['count'] = (params['count'] as number) + index;
    return [EventDecision.SUCCESS, params] as const;
  };
}

/** The baseline: await the same handlers in the same order, no copies, no checks, no timeouts. */
async function bareLoop(handlers: readonly Handler[], params: Params): Promise<Params> {
  let current = params;
  for (const handler of handlers) {
    const [decision, next] = await handler('bench', current);
    if (decision === EventDecision.PASS) continue;
    current = next;
    if (decision === EventDecision.STOP) break;
  }
  return current;
}

const payload = (): Params => ({ stream_id: 's1', messages: [], count: 0, config: null, result: '' });

export async function benchEventBus(): Promise<boolean> {
  const { logger } = createMemoryLogger('error');
  const cases: BenchCase[] = [];
  const buses = new Map<number, { timed: EventBus; untimed: EventBus; handlers: Handler[] }>();
  for (const count of [0, 1, 10]) {
    const handlers = Array.from({ length: count }, (_unused, index) => makeHandler(index));
    const timed = new EventBus({ clock: systemClock, logger });
    const untimed = new EventBus({ clock: systemClock, logger, defaultTimeoutSeconds: 0 });
    handlers.forEach((handler, index) => {
      timed.subscribe('bench', handler, { weight: count - index });
      untimed.subscribe('bench', handler, { weight: count - index });
    });
    buses.set(count, { timed, untimed, handlers });
    cases.push({ name: `bare loop, ${count} handlers`, fn: () => bareLoop(handlers, payload()), async: true });
    cases.push({ name: `publish, ${count} handlers (30 s timeouts)`, fn: () => timed.publish('bench', payload()), async: true });
    cases.push({ name: `publish, ${count} handlers (no timeouts)`, fn: () => untimed.publish('bench', payload()), async: true });
  }

  const host = createHost({ logger, appConfig: {}, pluginRoots: [], database: 'memory' });
  await host.start();
  buses.get(10)!.handlers.forEach((handler, index) => host.bus.subscribe('bench', handler, { weight: 10 - index }));
  cases.push({ name: 'publishEvent() via host, 10 handlers', fn: () => publishEvent('bench', payload()), async: true });

  const results = await runInterleaved(cases, { batch: 5_000, rounds: 20 });
  await host.stop();
  printTable('Event bus: publish against a bare loop awaiting the same handlers', results, (name) => {
    const count = /(\d+) handlers/.exec(name)?.[1];
    return count === undefined ? undefined : `bare loop, ${count} handlers`;
  });
  const get = (name: string) => results.find((result) => result.name === name)!.nsPerOp;
  // Goal (issue 20): at most 1.5x the bare loop, judged on the median of the per-round ratios.
  const bare10 = samplesOf(results, 'bare loop, 10 handlers');
  const metBus = judgeRatio({ label: 'bus.publish, 10 handlers, 30 s timeouts', measured: samplesOf(results, 'publish, 10 handlers (30 s timeouts)'), baseline: bare10, of: 'bare loop', atMost: 1.5 });
  const metApi = judgeRatio({ label: 'publishEvent() via the host, 10 handlers', measured: samplesOf(results, 'publishEvent() via host, 10 handlers'), baseline: bare10, of: 'bare loop', atMost: 1.5 });
  const perHandlerTimeout = (get('publish, 10 handlers (30 s timeouts)') - get('publish, 10 handlers (no timeouts)')) / 10;
  const perHandlerBus = (get('publish, 10 handlers (no timeouts)') - get('bare loop, 10 handlers')) / 10;
  const fixed = get('publish, 1 handlers (no timeouts)') - get('bare loop, 1 handlers') - perHandlerBus;
  console.log(
    `  where the time goes: per handler ${perHandlerBus.toFixed(0)} ns of bus work (copy, result check, loop) ` +
      `and ${perHandlerTimeout.toFixed(0)} ns for its deadline; per publish ~${Math.max(0, fixed).toFixed(0)} ns ` +
      '(key list, copier lookup, the result promise)',
  );
  return metBus && metApi;
}

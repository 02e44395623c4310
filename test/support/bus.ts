import { EventBus } from '../../src/kernel/event-bus/event-bus.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';

/** A bus on a manual clock with a memory logger, for tests. */
export function createTestBus(defaultTimeoutSeconds?: number) {
  const clock = new ManualClock();
  const { logger, records } = createMemoryLogger();
  const bus = new EventBus({ clock, logger, ...(defaultTimeoutSeconds === undefined ? {} : { defaultTimeoutSeconds }) });
  const warnings = () => records.filter((record) => record.level === 'warn');
  return { bus, clock, logger, records, warnings };
}

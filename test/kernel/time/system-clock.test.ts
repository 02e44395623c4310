import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/kernel/time/clock.js';

describe('systemClock', () => {
  it('runs zero-delay timers on the next turn of the loop, and can cancel them', async () => {
    const ran: string[] = [];
    systemClock.setTimeout(() => ran.push('now'), 0);
    const cancelled = systemClock.setTimeout(() => ran.push('cancelled'), 0);
    systemClock.clearTimeout(cancelled);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['now']);
  });

  it('runs delayed timers after their delay and sleeps', async () => {
    const started = Date.now();
    await systemClock.sleep(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(19);
  });
});

import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { RateLimitedLog, rateLimitedLogOf } from '../../../src/kernel/logger/rate-limited-log.js';
import { ManualClock } from '../../../src/kernel/time/manual-clock.js';

function setup(options: { fullLines?: number; maxKeys?: number } = {}) {
  const clock = new ManualClock();
  const { logger, records } = createMemoryLogger();
  const log = new RateLimitedLog({ logger, clock, ...options });
  return { clock, records, log };
}

describe('RateLimitedLog', () => {
  describe('when one key repeats within a minute', () => {
    it('writes the first three in full and then nothing until the minute is over', () => {
      const { log, records } = setup();
      for (let index = 0; index < 10; index += 1) log.warn('handler-a', { index }, `failure ${index}`);
      expect(records.map((record) => record.msg)).toEqual(['failure 0', 'failure 1', 'failure 2']);
      expect(records.every((record) => record.level === 'warn')).toBe(true);
    });

    it('writes one summary a minute after counting began, with the count and the last occurrence', async () => {
      const { log, records, clock } = setup();
      for (let index = 0; index < 121; index += 1) log.warn('handler-a', { index, error: `Error: #${index}` }, `handler a failed (#${index})`);
      await clock.advance(59_999);
      expect(records).toHaveLength(3);
      await clock.advance(1);
      expect(records).toHaveLength(4);
      expect(records[3]).toMatchObject({ level: 'warn', repeated: 118, window_s: 60, index: 120, error: 'Error: #120' });
      expect(records[3]!.msg).toBe('repeated 118 more times in the last 60 s (counted, not logged one by one); the last: handler a failed (#120)');
    });

    it('keeps counting minute by minute while the key goes on, and writes in full again after a quiet minute', async () => {
      const { log, records, clock } = setup();
      for (let index = 0; index < 5; index += 1) log.warn('k', {}, 'again');
      await clock.advance(30_000);
      log.warn('k', {}, 'again');
      await clock.advance(30_000);
      expect(records.at(-1)).toMatchObject({ repeated: 3 });
      log.warn('k', {}, 'still');
      await clock.advance(60_000);
      expect(records.at(-1)).toMatchObject({ repeated: 1, msg: expect.stringContaining('repeated 1 more time in') });
      await clock.advance(60_000); // a quiet minute: nothing to say, counting ends
      const before = records.length;
      log.warn('k', {}, 'news again');
      expect(records.slice(before).map((record) => record.msg)).toEqual(['news again']);
    });

    it('uses the level of the call for both the full lines and the summary', async () => {
      const { log, records, clock } = setup({ fullLines: 1 });
      log.error('k', {}, 'bad');
      log.error('k', {}, 'bad');
      await clock.advance(60_000);
      expect(records.map((record) => [record.level, record['repeated']])).toEqual([
        ['error', undefined],
        ['error', 1],
      ]);
    });
  });

  describe('when occurrences are spread out', () => {
    it('writes every one in full if no three fall within a minute', async () => {
      const { log, records, clock } = setup();
      for (let index = 0; index < 6; index += 1) {
        log.warn('slow', {}, `hourly ${index}`);
        await clock.advance(30_001);
      }
      expect(records.map((record) => record.msg)).toEqual(['hourly 0', 'hourly 1', 'hourly 2', 'hourly 3', 'hourly 4', 'hourly 5']);
      expect(clock.pendingTimers).toBe(0);
    });
  });

  describe('with several keys', () => {
    it('limits each key on its own', () => {
      const { log, records } = setup({ fullLines: 1 });
      for (let index = 0; index < 3; index += 1) {
        log.warn('a', {}, 'a failed');
        log.warn('b', {}, 'b failed');
      }
      expect(records.map((record) => record.msg)).toEqual(['a failed', 'b failed']);
    });

    it('shares one entry among the keys past the limit, so unbounded keys stay bounded', async () => {
      const { log, records, clock } = setup({ fullLines: 1, maxKeys: 2 });
      for (let index = 0; index < 1_000; index += 1) log.warn(`peer-${index}`, { index }, `peer ${index} sent junk`);
      expect(records.map((record) => record.msg)).toEqual(['peer 0 sent junk', 'peer 1 sent junk', 'peer 2 sent junk']);
      await clock.advance(60_000);
      expect(records.at(-1)).toMatchObject({ repeated: 997, index: 999 });
    });
  });

  describe(rateLimitedLogOf, () => {
    it('gives every caller of one logger the same limiter', () => {
      const clock = new ManualClock();
      const { logger, records } = createMemoryLogger();
      rateLimitedLogOf(logger, clock).warn('k', {}, 'one');
      rateLimitedLogOf(logger, clock).warn('k', {}, 'two');
      rateLimitedLogOf(logger, clock).warn('k', {}, 'three');
      rateLimitedLogOf(logger, clock).warn('k', {}, 'four');
      expect(records.map((record) => record.msg)).toEqual(['one', 'two', 'three']);
    });
  });
});

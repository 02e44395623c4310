import { describe, expect, it } from 'vitest';
import { DeadlineScheduler, TIMED_OUT } from '../../../src/kernel/event-bus/deadline-scheduler.js';
import { ManualClock } from '../../../src/kernel/time/manual-clock.js';

describe('DeadlineScheduler', () => {
  it('resolves with the value when the work settles first, and with TIMED_OUT when the deadline passes first', async () => {
    const clock = new ManualClock();
    const scheduler = new DeadlineScheduler({ clock });
    const fast = scheduler.race(clock.sleep(100).then(() => 'fast'), 1_000);
    const slow = scheduler.race(clock.sleep(5_000).then(() => 'slow'), 1_000);
    await clock.advance(1_000);
    expect(await fast).toBe('fast');
    expect(await slow).toBe(TIMED_OUT);
    expect(scheduler.size).toBe(0);
  });

  it('passes a rejection through', async () => {
    const clock = new ManualClock();
    const scheduler = new DeadlineScheduler({ clock });
    await expect(scheduler.race(Promise.reject(new Error('nope')), 1_000)).rejects.toThrow('nope');
  });

  it('keeps one clock timer for many races and re-arms for an earlier deadline', async () => {
    const clock = new ManualClock();
    const scheduler = new DeadlineScheduler({ clock });
    const never = new Promise<never>(() => undefined);
    const long = scheduler.race(never, 30_000);
    const longer = scheduler.race(never, 31_000);
    expect(clock.pendingTimers).toBe(1);
    const short = scheduler.race(never, 500);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(500);
    expect(await short).toBe(TIMED_OUT);
    expect(scheduler.size).toBe(2);
    await clock.advance(30_000);
    expect(await long).toBe(TIMED_OUT);
    expect(scheduler.size).toBe(1);
    await clock.advance(500);
    expect(await longer).toBe(TIMED_OUT);
    expect(clock.pendingTimers).toBe(0);
  });

  describe('with a precision window', () => {
    it('never fires before the timeout and at most the precision after it', async () => {
      const clock = new ManualClock();
      const scheduler = new DeadlineScheduler({ clock, precisionMs: 10 });
      const never = new Promise<never>(() => undefined);
      const first = scheduler.race(never, 1_000);
      await clock.advance(4); // a second wait later in the same window
      const second = scheduler.race(never, 1_000);
      let firstDone = false;
      let secondDone = false;
      void first.then(() => (firstDone = true));
      void second.then(() => (secondDone = true));
      await clock.advance(1_000 - 4 - 1); // 1 ms before the first wait's time
      expect([firstDone, secondDone]).toEqual([false, false]);
      await clock.advance(1 + 4); // the second wait's own time has now passed
      await clock.advance(10);
      expect([firstDone, secondDone]).toEqual([true, true]);
    });

    it('reads the clock once per window, not once per watch', () => {
      let reads = 0;
      const clock = new ManualClock();
      const counting = {
        now: () => {
          reads += 1;
          return clock.now();
        },
        setTimeout: (callback: () => void, delay: number) => clock.setTimeout(callback, delay),
        clearTimeout: (handle: object) => clock.clearTimeout(handle),
        sleep: (delay: number) => clock.sleep(delay),
      };
      const scheduler = new DeadlineScheduler({ clock: counting, precisionMs: 10 });
      for (let index = 0; index < 100; index += 1) {
        const item = { deadline: 0, watchIndex: -1, expire: () => undefined };
        scheduler.watch(item, 30_000);
        scheduler.unwatch(item);
      }
      expect(reads).toBeLessThanOrEqual(2); // the window's start, and arming the expiry timer
    });

    it('moves the deadline of an item watched again instead of adding it twice', async () => {
      const clock = new ManualClock();
      const scheduler = new DeadlineScheduler({ clock, precisionMs: 10 });
      let expired = 0;
      const item = { deadline: 0, watchIndex: -1, expire: () => (expired += 1) };
      scheduler.watch(item, 1_000);
      await clock.advance(900);
      scheduler.watch(item, 1_000); // a new wait of the same item, from now
      expect(scheduler.size).toBe(1);
      await clock.advance(1_000);
      expect(expired).toBe(0);
      await clock.advance(10);
      expect(expired).toBe(1);
      expect(scheduler.size).toBe(0);
    });

    it('moves deadlines later when the event loop overran the window, so nothing expires early', async () => {
      // A clock whose timers we fire by hand, to stand for a loop blocked past the window.
      let now = 0;
      const timers: { at: number; callback: () => void }[] = [];
      const clock = {
        now: () => now,
        setTimeout: (callback: () => void, delay: number) => {
          const timer = { at: now + delay, callback };
          timers.push(timer);
          return timer;
        },
        clearTimeout: (handle: object) => void timers.splice(timers.indexOf(handle as never), 1),
        sleep: () => Promise.resolve(),
      };
      const scheduler = new DeadlineScheduler({ clock, precisionMs: 10 });
      let expired = false;
      scheduler.watch({ deadline: 0, watchIndex: -1, expire: () => undefined }, 5_000); // opens the window at 0
      now = 500; // blocked 490 ms past the window's end; this watch really starts at 500
      const late = { deadline: 0, watchIndex: -1, expire: () => (expired = true) };
      scheduler.watch(late, 1_000);
      // The loop wakes at 1 020: run what is due, in due order, as Node would.
      now = 1_020;
      for (const timer of [...timers].sort((a, b) => a.at - b.at)) if (timer.at <= now) timer.callback();
      expect(expired).toBe(false); // started at 500 with 1 000 ms: due at 1 500, not before
      // Its true start is unknown within the block, so it is bounded by the wake-up time.
      expect(late.deadline).toBeGreaterThanOrEqual(1_500);
      expect(late.deadline).toBeLessThanOrEqual(1_020 + 1_000);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { type ChatterResult, Failure, Stop, Success, Wait } from '../../src/chatter/chatter-result.js';
import type { ChatterGenerator } from '../../src/chatter/chatter-run.js';
import { type DriverState, StreamDriver } from '../../src/chatter/stream-driver.js';
import { WaitResumeEvent } from '../../src/chatter/wait-resume-event.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { flushMicrotasks } from '../../src/kernel/time/manual-clock.js';
import { SequenceRandom } from '../../src/kernel/time/random.js';
import { createTestBus } from '../support/bus.js';

type Script = (resume: WaitResumeEvent | undefined, run: number) => ChatterResult | Promise<ChatterResult> | 'end';

/** A driver over a chatter whose every step follows `script`; records runs and resumes. */
function setUp(script: Script, options: { random?: number[]; timing?: Record<string, number> } = {}) {
  const { bus, clock, logger, records } = createTestBus();
  const resumes: (string | undefined)[] = [];
  const states: DriverState[] = [];
  let unread = 0;
  let runs = 0;
  const driver = new StreamDriver({
    streamId: 's1',
    chatterName: 'test_chatter',
    createChatter: () => ({
      async *execute(): ChatterGenerator {
        const run = ++runs;
        let resume: WaitResumeEvent | undefined;
        for (;;) {
          resumes.push(resume === undefined ? `run${run}:start` : `run${run}:${resume.source}`);
          unread = 0; // the chatter reads (and flushes) the unreads
          const result = await script(resume, run);
          if (result === 'end') return;
          resume = yield result;
        }
      },
    }),
    unreadCount: () => unread,
    bus,
    clock,
    random: new SequenceRandom(options.random ?? [0.99]),
    logger,
    timing: { messageBufferMs: 0, ...options.timing },
    onStateChange: (state) => states.push(state),
  });
  const message = async (direct = false) => {
    unread += 1;
    driver.notifyMessage({ direct });
    await clock.advance(0);
  };
  return { driver, bus, clock, resumes, states, message, records, runs: () => runs };
}

describe('StreamDriver', () => {
  it('starts a run for a new message, priming the fresh generator without a resume event', async () => {
    const { resumes, message, driver } = setUp(() => new Wait());
    await message();
    expect(resumes).toEqual(['run1:start']);
    expect(driver.state).toMatchObject({ kind: 'waiting', time: undefined });
  });

  it('resumes Wait() on a new message only, never on time', async () => {
    const { resumes, message, clock } = setUp(() => new Wait());
    await message();
    await clock.advance(3_600_000);
    expect(resumes).toEqual(['run1:start']);
    await message();
    expect(resumes).toEqual(['run1:start', 'run1:message']);
  });

  it('resumes Wait(t) after t seconds with source timer, or earlier on a message', async () => {
    const { resumes, message, clock } = setUp((resume) => (resume?.source === 'timer' ? new Wait() : new Wait(5)));
    await message();
    await clock.advance(4_999);
    expect(resumes).toEqual(['run1:start']);
    await clock.advance(1);
    expect(resumes).toEqual(['run1:start', 'run1:timer']);

    const second = setUp(() => new Wait(5));
    await second.message();
    await second.clock.advance(2_000);
    await second.message();
    expect(second.resumes).toEqual(['run1:start', 'run1:message']);
  });

  it('ends a run on Success or Failure; the next message starts a new run', async () => {
    const { resumes, message, driver } = setUp((_resume, run) => (run === 1 ? new Success() : new Failure('no')));
    await message();
    expect(driver.state.kind).toBe('idle');
    await message();
    await message();
    expect(resumes).toEqual(['run1:start', 'run2:start', 'run3:start']);
  });

  it('after Stop(t) starts nothing until the cooldown has passed AND a new message came', async () => {
    const { resumes, message, clock, driver } = setUp(() => new Stop(60));
    await message();
    expect(driver.state).toMatchObject({ kind: 'stopped' });
    await message(); // inside the cooldown
    expect(resumes).toEqual(['run1:start']);
    await clock.advance(60_000); // cooldown over, and a message came during it
    expect(resumes).toEqual(['run1:start', 'run2:start']);
    await clock.advance(120_000); // cooldown over again, but no message since
    expect(resumes).toEqual(['run1:start', 'run2:start']);
    await message();
    expect(resumes).toEqual(['run1:start', 'run2:start', 'run3:start']);
  });

  it('lets a direct message wake a stopped stream early with the configured chance, drawn from the injected random source', async () => {
    const script: Script = () => new Stop(600, { directMessageWakeEnabled: true, directMessageWakeProbability: 0.5 });
    const lucky = setUp(script, { random: [0.3] });
    await lucky.message();
    await lucky.message(true);
    expect(lucky.resumes).toEqual(['run1:start', 'run2:start']);

    const unlucky = setUp(script, { random: [0.7] });
    await unlucky.message();
    await unlucky.message(true);
    expect(unlucky.resumes).toEqual(['run1:start']);

    const notDirect = setUp(script, { random: [0] });
    await notDirect.message();
    await notDirect.message(false);
    expect(notDirect.resumes).toEqual(['run1:start']);

    const disabled = setUp(() => new Stop(600, { directMessageWakeProbability: 1 }), { random: [0] });
    await disabled.message();
    await disabled.message(true);
    expect(disabled.resumes).toEqual(['run1:start']);
  });

  it('delivers an external resume event (sub_agent, internal_context, any string) even with no new message', async () => {
    const { resumes, message, driver, clock } = setUp(() => new Wait());
    await message();
    driver.resume(new WaitResumeEvent('sub_agent', { extra: { answer: 42 } }));
    await clock.advance(0);
    driver.resume(new WaitResumeEvent('my_plugin:reminder'));
    await clock.advance(0);
    expect(resumes).toEqual(['run1:start', 'run1:sub_agent', 'run1:my_plugin:reminder']);
  });

  it('waits for a burst of messages to settle, a few ticks at most', async () => {
    const { resumes, message, clock } = setUp(() => new Wait(), { timing: { messageBufferMs: 1_000, maxBufferSkips: 3 } });
    await message();
    await clock.advance(500);
    await message();
    await clock.advance(999);
    expect(resumes).toEqual([]);
    await clock.advance(1);
    expect(resumes).toEqual(['run1:start']);
  });

  it('gives up buffering after the maximum number of skips', async () => {
    const { resumes, message, clock } = setUp(() => new Wait(), { timing: { messageBufferMs: 1_000, maxBufferSkips: 1 } });
    await message(); // skip 1
    await clock.advance(900);
    expect(resumes).toEqual([]);
    await clock.advance(100);
    expect(resumes).toEqual(['run1:start']);
  });

  it('skips the tick when an on_chatter_step handler sets continue = false', async () => {
    const { resumes, message, bus } = setUp(() => new Wait());
    let block = true;
    bus.subscribe('on_chatter_step', (_name, params) => [EventDecision.SUCCESS, { ...params, continue: !block }]);
    await message();
    expect(resumes).toEqual([]);
    block = false;
    await message();
    expect(resumes).toEqual(['run1:start']);
  });

  it('publishes after_chatter_step with the result, its step data and the used tools', async () => {
    const { message, bus } = setUp(() => new Wait(undefined, { step_scope: 'actor_round', used_tools: ['send_text'] }));
    const seen: unknown[] = [];
    bus.subscribe('after_chatter_step', (_name, params) => (seen.push({ ...params, result: params.result.kind }), [EventDecision.PASS, params]));
    await message();
    expect(seen).toEqual([
      { stream_id: 's1', chatter_name: 'test_chatter', result_type: 'wait', result: 'wait', step_data: { step_scope: 'actor_round', used_tools: ['send_text'] }, used_tools: ['send_text'] },
    ]);
  });

  it('abandons a step that exceeds the step timeout as a Failure; the next message starts afresh', async () => {
    const { resumes, message, clock, records, driver } = setUp(
      (_resume, run) => (run === 1 ? new Promise<ChatterResult>(() => undefined) : new Wait()),
      { timing: { stepTimeoutMs: 10_000 } },
    );
    await message();
    await clock.advance(10_000);
    expect(driver.state.kind).toBe('idle');
    expect(records.some((record) => record.msg.includes('timed out'))).toBe(true);
    await message();
    expect(resumes).toEqual(['run1:start', 'run2:start']);
  });

  it('turns a chatter that throws into a Failure and keeps the stream working', async () => {
    const { resumes, message, records } = setUp((_resume, run) => {
      if (run === 1) throw new Error('prompt broke');
      return new Wait();
    });
    await message();
    expect(records.find((record) => record.level === 'error')).toMatchObject({ error: 'Error: prompt broke' });
    await message();
    expect(resumes).toEqual(['run1:start', 'run2:start']);
  });

  it('reports each state change, so the host can persist waits and cooldowns', async () => {
    const { message, states, clock } = setUp((resume) => (resume === undefined ? new Wait(1) : new Stop(30)));
    await message();
    await clock.advance(1_000);
    expect(states.map((state) => state.kind)).toEqual(['waiting', 'stopped']);
    expect(states[1]).toMatchObject({ until: clock.now() + 30_000 });
  });

  it('starts in a restored cooldown after a restart', async () => {
    const { bus, clock, logger } = createTestBus();
    let unread = 0;
    let runs = 0;
    const driver = new StreamDriver({
      streamId: 's1',
      chatterName: 'c',
      createChatter: () => ({
        async *execute(): ChatterGenerator {
          runs += 1;
          yield new Wait();
        },
      }),
      unreadCount: () => unread,
      bus,
      clock,
      random: new SequenceRandom([0.5]),
      logger,
      timing: { messageBufferMs: 0 },
      initialState: { kind: 'stopped', until: clock.now() + 5_000, wakeEnabled: false, wakeProbability: 0 },
    });
    unread = 1;
    driver.notifyMessage({ direct: false });
    await clock.advance(0);
    expect(runs).toBe(0);
    await clock.advance(5_000);
    await flushMicrotasks();
    expect(runs).toBe(1);
  });

  it('has a watchdog: a tick stuck past the restart limit (a hung handler without timeout) is abandoned and the stream starts afresh', async () => {
    const { resumes, message, clock, bus, records } = setUp(() => new Wait(), {
      timing: { tickIntervalMs: 1_000, watchdogWarnMs: 2_000, watchdogRestartMs: 4_000 },
    });
    let hang = true;
    bus.subscribe('on_chatter_step', (_name, params) => (hang ? new Promise<never>(() => undefined) : [EventDecision.PASS, params]), { timeout: 0 });
    await message();
    await clock.advance(2_000);
    expect(records.some((record) => record.msg === 'stream loop tick is taking long')).toBe(true);
    hang = false;
    await clock.advance(2_000);
    expect(records.some((record) => record.msg.startsWith('stream loop stuck'))).toBe(true);
    // The abandoned tick never reached the chatter; the fresh start runs it, and it keeps working.
    expect(resumes).toEqual(['run1:start']);
    await message();
    expect(resumes).toEqual(['run1:start', 'run1:message']);
  });

  it('resumes Wait(t) on time even when a step took a while (the watchdog tick does not swallow the timer)', async () => {
    const { resumes, message, clock } = setUp(
      async (resume) => {
        if (resume === undefined) await clock.sleep(1_000); // a slow first step
        return resume?.source === 'timer' ? new Wait() : new Wait(5);
      },
      { timing: { tickIntervalMs: 5_000 } },
    );
    await message();
    await clock.advance(1_000);
    await clock.advance(4_000); // the watchdog tick at 5 s finds the wait not yet over
    expect(resumes).toEqual(['run1:start']);
    await clock.advance(1_000); // 1 s + 5 s
    expect(resumes).toEqual(['run1:start', 'run1:timer']);
  });

  describe('after a run that failed', () => {
    /** A driver whose every run fails at once and leaves `unread` messages unread. */
    function failing(unread: (runsStarted: number) => number) {
      const { bus, clock, logger, records } = createTestBus();
      const startedAt: number[] = [];
      const signals: AbortSignal[] = [];
      const driver = new StreamDriver({
        streamId: 's1',
        chatterName: 'test_chatter',
        createChatter: (signal) => ({
          async *execute(): ChatterGenerator {
            signals.push(signal);
            startedAt.push(clock.now());
            yield new Failure('the model endpoint is down');
          },
        }),
        unreadCount: () => unread(startedAt.length),
        bus,
        clock,
        random: new SequenceRandom([0.99]),
        logger,
        timing: { messageBufferMs: 0, failureRetryMs: 5_000, failureRetryMaxMs: 20_000 },
      });
      return { driver, clock, records, startedAt, signals };
    }

    it('[fault] tries again while messages are unread, after failureRetryMs doubled per failure in a row, up to failureRetryMaxMs', async () => {
      const { driver, clock, records, startedAt, signals } = failing(() => 1);
      const start = clock.now();
      driver.notifyMessage({ direct: true });
      for (let second = 0; second < 80; second += 1) await clock.advance(1_000);
      expect(startedAt.map((at) => (at - start) / 1000)).toEqual([0, 5, 15, 35, 55, 75]);
      expect(records.filter((record) => record.level === 'warn').map((record) => record['retry_in_ms'])).toEqual([5_000, 10_000, 20_000, 20_000, 20_000, 20_000]);
      // Each run's signal is aborted when the run ends, so nothing it started can act late.
      expect(signals.every((signal) => signal.aborted)).toBe(true);
      await driver.close();
    });

    it('[fault] does not retry when the failed run left nothing unread', async () => {
      // The run read its message (flushed it) before it failed.
      const { driver, clock, records, startedAt } = failing((runsStarted) => (runsStarted === 0 ? 1 : 0));
      driver.notifyMessage({ direct: true });
      for (let second = 0; second < 30; second += 1) await clock.advance(1_000);
      expect(startedAt).toHaveLength(1);
      expect(records).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'the run failed; nothing is left unread' }));
      await driver.close();
    });
  });
});

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScheduledRun } from 'moonglass';
import { useProjectTempDir } from '../support/temp-dir.js';
import { onProbeLoad, PROBE_ID, type ScheduleHost, startScheduleHost } from './schedule-host.js';

// Issue 18, item 5 (first part): ctx.schedule runs a plugin's job on the host clock at the
// times of a cron expression in the bot's time zone, or every N seconds; it belongs to the
// plugin's scope; persisted jobs remember their last run, so a time missed while the host was
// down runs once after the restart (or is skipped).

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const JAN_1 = Date.UTC(2026, 0, 1); // 08:00 in Asia/Shanghai

const iso = (ms: number) => new Date(ms).toISOString();

describe('ctx.schedule', () => {
  const tempDir = useProjectTempDir();
  const hosts: ScheduleHost[] = [];
  const start = async (work: string, options: { startMs: number; timeZone?: string }) => {
    const host = await startScheduleHost(work, options);
    hosts.push(host);
    return host;
  };
  afterEach(async () => {
    while (hosts.length > 0) await hosts.pop()!.stop();
    onProbeLoad(undefined);
  });

  it('[issue 18.5] a cron job runs at its local time in bot.toml [bot] timezone, every day', async () => {
    const runs: string[] = [];
    onProbeLoad((ctx) => ctx.schedule('0 9 * * *', (run) => void runs.push(iso(run.scheduledAt)), { name: 'morning' }));
    const bot = await start(tempDir(), { startMs: JAN_1, timeZone: 'Asia/Shanghai' });

    await bot.advance(59 * MINUTE); // 08:59 in Shanghai
    expect(runs).toEqual([]);
    await bot.advance(MINUTE); // 09:00 in Shanghai is 01:00 UTC
    expect(runs).toEqual(['2026-01-01T01:00:00.000Z']);
    expect(bot.clock.now()).toBe(Date.UTC(2026, 0, 1, 1));
    await bot.advance(DAY);
    expect(runs).toEqual(['2026-01-01T01:00:00.000Z', '2026-01-02T01:00:00.000Z']);
  });

  it('[issue 18.5] an interval job runs every everySeconds, counted from its start', async () => {
    const runs: string[] = [];
    onProbeLoad((ctx) => ctx.schedule({ everySeconds: 600 }, (run) => void runs.push(iso(run.scheduledAt)), { name: 'tick' }));
    const bot = await start(tempDir(), { startMs: JAN_1 });
    await bot.advance(35 * MINUTE);
    expect(runs).toEqual(['2026-01-01T00:10:00.000Z', '2026-01-01T00:20:00.000Z', '2026-01-01T00:30:00.000Z']);
  });

  it('[issue 18.5] belongs to the plugin: a reload cancels the old job (its name is free again), removing the plugin and the disposer cancel it', async () => {
    const runs: string[] = [];
    let held: readonly string[] = [];
    let cancel: (() => void) | undefined;
    onProbeLoad((ctx) => {
      ctx.schedule({ everySeconds: 600 }, () => void runs.push('first load'), { name: 'tick' });
      held = ctx.effects();
    });
    const bot = await start(tempDir(), { startMs: JAN_1 });
    expect(held).toContain('schedule tick (every 600 s)');

    onProbeLoad((ctx) => {
      ctx.schedule({ everySeconds: 600 }, () => void runs.push('reloaded'), { name: 'tick' });
      cancel = ctx.schedule({ everySeconds: 600 }, () => void runs.push('cancelled one'), { name: 'other' });
    });
    await bot.host.plugins.reload(PROBE_ID);
    cancel!();
    await bot.advance(20 * MINUTE);
    expect(runs).toEqual(['reloaded', 'reloaded']);

    await bot.host.plugins.removePlugin(PROBE_ID);
    await bot.advance(HOUR);
    expect(runs).toEqual(['reloaded', 'reloaded']);
  });

  it('[issue 18.5] a run that throws is logged with the plugin, the job and the error, and the schedule goes on', async () => {
    let calls = 0;
    onProbeLoad((ctx) =>
      ctx.schedule(
        { everySeconds: 60 },
        async () => {
          calls += 1;
          throw new Error(`bad run ${calls}`);
        },
        { name: 'flaky' },
      ),
    );
    const bot = await start(tempDir(), { startMs: JAN_1 });
    await bot.advance(3 * MINUTE);
    expect(calls).toBe(3);
    const failures = bot.logs.filter((record) => record.msg === 'a scheduled job of the plugin failed; its schedule goes on');
    expect(failures.map(({ plugin, job, error, level }) => ({ plugin, job, error, level }))).toEqual([1, 2, 3].map((n) => ({ plugin: PROBE_ID, job: 'flaky', error: `Error: bad run ${n}`, level: 'error' })));
  });

  it('[issue 18.5] runs of one job never overlap: a slow run delays the next (logged at debug), and the times it covered run once', async () => {
    const started: string[] = [];
    const finishes: (() => void)[] = [];
    onProbeLoad((ctx) =>
      ctx.schedule(
        { everySeconds: 60 },
        (run: ScheduledRun) => {
          started.push(iso(run.scheduledAt));
          return new Promise<void>((resolve) => finishes.push(resolve));
        },
        { name: 'slow' },
      ),
    );
    const bot = await start(tempDir(), { startMs: JAN_1 });
    await bot.advance(5 * MINUTE + 30_000); // the first run (00:01) is still going at 00:05:30
    expect(started).toEqual(['2026-01-01T00:01:00.000Z']);
    finishes.shift()!();
    await bot.advance(0);
    // Its next time (00:02) passed long ago: it runs now, once, not once per minute missed.
    expect(started).toEqual(['2026-01-01T00:01:00.000Z', '2026-01-01T00:02:00.000Z']);
    expect(bot.logs.filter((record) => record.msg === 'a scheduled job ran past its next time; the next run starts now, late')).toMatchObject([{ level: 'debug', job: 'slow', plugin: PROBE_ID }]);
    finishes.shift()!();
    await bot.advance(MINUTE); // counted from the late run's start (00:05:30)
    expect(started).toEqual(['2026-01-01T00:01:00.000Z', '2026-01-01T00:02:00.000Z', '2026-01-01T00:06:30.000Z']);
  });

  it('[issue 18.5] unloading the plugin aborts the signal of a run still going, and no run follows', async () => {
    const signals: AbortSignal[] = [];
    onProbeLoad((ctx) => ctx.schedule({ everySeconds: 60 }, (run: ScheduledRun) => new Promise<void>(() => void signals.push(run.signal)), { name: 'stuck' }));
    const bot = await start(tempDir(), { startMs: JAN_1 });
    await bot.advance(MINUTE);
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    await bot.host.plugins.removePlugin(PROBE_ID);
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
    expect(String(signals[0]!.reason)).toContain(`the scheduled job stuck of plugin ${PROBE_ID} was cancelled`);
    await bot.advance(10 * MINUTE);
    expect(signals).toHaveLength(1);
  });

  it('[issue 18.5] after a restart on the same data folder, a time missed while the host was down runs once with missed run_once, and not with skip', async () => {
    const work = tempDir();
    const runs: string[] = [];
    onProbeLoad((ctx) => {
      const note = (run: ScheduledRun) => void runs.push(`${run.name} ${iso(run.scheduledAt)}${run.missed ? ' (missed)' : ''}`);
      ctx.schedule('0 9 * * *', note, { name: 'catch-up' });
      ctx.schedule('0 9 * * *', note, { name: 'skipper', missed: 'skip' });
    });
    const first = await start(work, { startMs: JAN_1, timeZone: 'Asia/Shanghai' });
    await first.advance(HOUR);
    expect(runs.splice(0)).toEqual(['catch-up 2026-01-01T01:00:00.000Z', 'skipper 2026-01-01T01:00:00.000Z']);
    await hosts.pop()!.stop();

    // Three 09:00s pass while the bot is down; it comes back on Jan 4 at 10:00 Shanghai time.
    const second = await start(work, { startMs: Date.UTC(2026, 0, 4, 2), timeZone: 'Asia/Shanghai' });
    await second.advance(MINUTE);
    expect(runs.splice(0)).toEqual(['catch-up 2026-01-02T01:00:00.000Z (missed)']);
    expect(second.logs.filter((record) => /missed its time while the host was down/.test(record.msg)).map(({ job, msg }) => `${String(job)}: ${msg}`)).toEqual([
      'catch-up: a scheduled job missed its time while the host was down; it runs once now',
      'skipper: a scheduled job missed its time while the host was down; skipped (missed: skip)',
    ]);
    await second.advance(DAY);
    expect(runs.splice(0).sort()).toEqual(['catch-up 2026-01-05T01:00:00.000Z', 'skipper 2026-01-05T01:00:00.000Z']);
    await hosts.pop()!.stop();

    // The catch-up run was remembered: a third start soon after runs nothing again.
    const rows = new Database(join(work, 'data', 'moonglass.db'), { readonly: true });
    try {
      expect(rows.prepare('SELECT plugin_id, job_name, spec, last_run_at, last_error FROM schedules ORDER BY job_name').all()).toEqual([
        { plugin_id: PROBE_ID, job_name: 'catch-up', spec: '0 9 * * *', last_run_at: Date.UTC(2026, 0, 5, 1), last_error: null },
        { plugin_id: PROBE_ID, job_name: 'skipper', spec: '0 9 * * *', last_run_at: Date.UTC(2026, 0, 5, 1), last_error: null },
      ]);
    } finally {
      rows.close();
    }
    const third = await start(work, { startMs: Date.UTC(2026, 0, 5, 2), timeZone: 'Asia/Shanghai' });
    await third.advance(MINUTE);
    expect(runs).toEqual([]);
  });

  it('[issue 18.5] a job registered but never run before the host went down catches up once from when it was registered', async () => {
    const work = tempDir();
    const runs: string[] = [];
    onProbeLoad((ctx) => ctx.schedule({ everySeconds: 3600 }, (run) => void runs.push(`${iso(run.scheduledAt)}${run.missed ? ' (missed)' : ''}`), { name: 'hourly' }));
    const first = await start(work, { startMs: JAN_1 });
    await first.advance(30 * MINUTE);
    await hosts.pop()!.stop();
    const second = await start(work, { startMs: JAN_1 + 5 * HOUR });
    await second.advance(0);
    expect(runs).toEqual(['2026-01-01T01:00:00.000Z (missed)']);
    await second.advance(HOUR);
    expect(runs).toEqual(['2026-01-01T01:00:00.000Z (missed)', '2026-01-01T06:00:00.000Z']);
  });

  it('[issue 18.5] a bad cron expression, an unnamed persisted job and a taken name are errors naming the plugin and what was wrong', async () => {
    const errors: string[] = [];
    const attempt = (call: () => unknown) => {
      try {
        call();
      } catch (error) {
        errors.push((error as Error).message);
      }
    };
    onProbeLoad((ctx) => {
      attempt(() => ctx.schedule('61 * * * *', () => undefined, { name: 'bad' }));
      attempt(() => ctx.schedule('0 9 * *', () => undefined, { name: 'short' }));
      attempt(() => ctx.schedule('0 9 * * *', () => undefined));
      attempt(() => ctx.schedule('0 0 30 2 *', () => undefined, { name: 'february-30' }));
      attempt(() => ctx.schedule({ everySeconds: 0 }, () => undefined, { name: 'never' }));
      ctx.schedule('0 9 * * *', () => undefined, { name: 'taken' });
      attempt(() => ctx.schedule('0 10 * * *', () => undefined, { name: 'taken' }));
      ctx.schedule('0 9 * * *', () => undefined, { persist: false }); // named from its spec, not persisted
    });
    await start(tempDir(), { startMs: JAN_1 });
    expect(errors).toEqual([
      `plugin ${PROBE_ID}: ctx.schedule(): spec must be a 5-field cron expression (minute hour day-of-month month day-of-week, e.g. "0 9 * * *") (CronPattern: Invalid value for minute: 61), got "61 * * * *"`,
      expect.stringMatching(new RegExp(`^plugin ${PROBE_ID}: ctx\\.schedule\\(\\): spec must be a 5-field cron expression .*got "0 9 \\* \\*"$`)),
      `plugin ${PROBE_ID}: ctx.schedule(): options.name must be a name for this persisted job ("0 9 * * *"): its last run is stored under it; or pass persist: false, got undefined`,
      `plugin ${PROBE_ID}: ctx.schedule(): spec must be a 5-field cron expression (minute hour day-of-month month day-of-week, e.g. "0 9 * * *") that names a time that exists (this one never comes), got "0 0 30 2 *"`,
      `plugin ${PROBE_ID}: ctx.schedule(): spec.everySeconds must be a positive, finite number of seconds, got 0`,
      `plugin ${PROBE_ID}: ctx.schedule(): options.name must be unique among the plugin’s live jobs (another job has this name), got "taken"`,
    ]);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { machineTimeZone, resolveTimeZone, zonedTime } from '../../../src/kernel/time/zoned-time.js';
import { textReply, useTestHosts } from '../../support/ndfc.js';

const savedTz = process.env['TZ'];
function setTz(value: string | undefined): void {
  if (value === undefined) delete process.env['TZ'];
  else process.env['TZ'] = value;
}

/** What ICU reads for `epochMs` in `zone`: the reference the local-time path must agree with. */
function icuTime(epochMs: number, zone: string) {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short' });
  for (const part of format.formatToParts(new Date(epochMs))) parts[part.type] = part.value;
  const wall = { year: Number(parts['year']), month: Number(parts['month']), day: Number(parts['day']), hour: Number(parts['hour']) % 24, minute: Number(parts['minute']), second: Number(parts['second']) };
  const offsetMinutes = Math.round((Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - Math.floor(epochMs / 1000) * 1000) / 60_000);
  return { ...wall, weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts['weekday']!), offsetMinutes };
}

afterEach(() => {
  setTz(savedTz);
  vi.restoreAllMocks();
});

describe('the machine time zone, read without an ICU formatter (issue 20)', () => {
  it.each([
    ['Asia/Kolkata', 'Asia/Kolkata'],
    [':Asia/Tokyo', 'Asia/Tokyo'],
    ['/usr/share/zoneinfo/Europe/Berlin', 'Europe/Berlin'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Etc/GMT-8', 'Etc/GMT-8'],
    ['', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['Zulu', 'UTC'],
  ])('TZ=%j is %s, and no Intl.DateTimeFormat is built to say so', (tz, zone) => {
    setTz(tz);
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    expect(machineTimeZone()).toBe(zone);
    expect(resolveTimeZone('')).toBe(zone);
    expect(built).not.toHaveBeenCalled();
  });

  it('a TZ that names no zone plainly (a POSIX rule) is left to ICU, which knows what Date uses', () => {
    setTz('CST-8');
    expect(machineTimeZone()).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('is read again when TZ changes, as Date is', () => {
    setTz('Asia/Shanghai');
    expect(machineTimeZone()).toBe('Asia/Shanghai');
    expect(zonedTime(Date.UTC(2026, 0, 1), '').hour).toBe(8);
    setTz('America/New_York');
    expect(machineTimeZone()).toBe('America/New_York');
    expect(zonedTime(Date.UTC(2026, 0, 1), '').hour).toBe(19);
  });
});

describe('zonedTime: the local clock and ICU agree (issue 20)', () => {
  // Around both 2026 DST changes in New York, a half-hour zone, and a day boundary.
  const moments = [Date.UTC(2026, 2, 8, 6, 59, 59), Date.UTC(2026, 2, 8, 7, 0, 0), Date.UTC(2026, 10, 1, 5, 59, 59), Date.UTC(2026, 10, 1, 6, 0, 0), Date.UTC(2025, 11, 31, 23, 59, 59, 999), Date.UTC(2024, 1, 29, 12, 0, 0)];

  it.each(['America/New_York', 'Asia/Kolkata', 'Asia/Shanghai', 'UTC'])('the machine zone %s, read by Date, matches ICU at every moment', (zone) => {
    setTz(zone);
    for (const moment of moments) {
      expect(zonedTime(moment, ''), new Date(moment).toISOString()).toEqual(icuTime(moment, zone));
      // Named as the machine's zone, it takes the same path.
      expect(zonedTime(moment, zone)).toEqual(icuTime(moment, zone));
    }
  });

  it('another zone than the machine’s is read by ICU', () => {
    setTz('UTC');
    const moment = Date.UTC(2026, 2, 8, 7, 0, 0);
    expect(zonedTime(moment, 'America/New_York')).toEqual({ year: 2026, month: 3, day: 8, hour: 3, minute: 0, second: 0, weekday: 0, offsetMinutes: -240 });
    expect(zonedTime(moment, 'Asia/Kolkata')).toEqual({ year: 2026, month: 3, day: 8, hour: 12, minute: 30, second: 0, weekday: 0, offsetMinutes: 330 });
  });
});

describe('a turn in the machine zone builds no ICU formatter and no collator (issue 20)', () => {
  const start = useTestHosts();

  it('start, a message, the prompt with its times, the reply: Intl.DateTimeFormat and localeCompare are never called', async () => {
    setTz('Asia/Shanghai');
    const formatters = vi.spyOn(Intl, 'DateTimeFormat');
    const collations = vi.spyOn(String.prototype, 'localeCompare');
    const test = await start({ script: textReply('') });
    await test.adapter.send('现在几点');
    await test.settle(2_000);
    expect(test.model.calls).toHaveLength(1);
    expect(JSON.stringify(test.model.calls[0]!.payloads)).toContain('Asia/Shanghai 时间，UTC+08:00');
    expect(formatters).not.toHaveBeenCalled();
    expect(collations).not.toHaveBeenCalled();
  });
});

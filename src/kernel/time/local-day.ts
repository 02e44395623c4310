import { resolveTimeZone, zonedTime } from './zoned-time.js';

/** One calendar day in a time zone. */
export interface LocalDay {
  /** `YYYY-MM-DD`. */
  key: string;
  /** Epoch milliseconds of its 00:00. */
  start: number;
  /** Epoch milliseconds of the next day's 00:00. */
  end: number;
}

/** How far `timeZone` is ahead of UTC at `epochMs`, milliseconds. */
function offsetAt(epochMs: number, timeZone: string): number {
  return zonedTime(epochMs, timeZone).offsetMinutes * 60_000;
}

/** The epoch of 00:00 on the given date in `timeZone` (twice round: the offset may differ at midnight). */
function midnight(year: number, month: number, day: number, timeZone: string): number {
  const utcMidnight = Date.UTC(year, month - 1, day);
  let guess = utcMidnight - offsetAt(utcMidnight, timeZone);
  guess = utcMidnight - offsetAt(guess, timeZone);
  return guess;
}

/** The calendar day `epochMs` falls on in `timeZone` (an IANA name; `''`: the machine's). */
export function localDayOf(epochMs: number, timeZone: string): LocalDay {
  const zone = resolveTimeZone(timeZone);
  const { year, month, day } = zonedTime(epochMs, zone);
  const start = midnight(year, month, day, zone);
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  const end = midnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), zone);
  return { key: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, start, end };
}

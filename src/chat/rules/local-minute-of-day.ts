import { zonedTime } from '../../kernel/time/zoned-time.js';

/** Minutes after local midnight of `epochMs` in `timeZone` (an IANA name; `''`: the machine's), 0 to 1439. */
export function localMinuteOfDay(epochMs: number, timeZone: string): number {
  const { hour, minute } = zonedTime(epochMs, timeZone);
  return hour * 60 + minute;
}

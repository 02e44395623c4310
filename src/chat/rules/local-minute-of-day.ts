import { resolveTimeZone } from '../../kernel/time/local-day.js';

const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes after local midnight of `epochMs` in `timeZone` (an IANA name; `''`: the machine's), 0 to 1439. */
export function localMinuteOfDay(epochMs: number, timeZone: string): number {
  const zone = resolveTimeZone(timeZone);
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(zone, format);
  }
  let hour = 0;
  let minute = 0;
  for (const part of format.formatToParts(new Date(epochMs))) {
    if (part.type === 'hour') hour = Number(part.value) % 24;
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return hour * 60 + minute;
}

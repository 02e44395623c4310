import * as z from 'zod';
import { localMinuteOfDay } from './local-minute-of-day.js';

/** A local time range of a rule, minutes after midnight; `end <= start`: it crosses midnight. */
export interface HourRange {
  readonly start: number;
  readonly end: number;
}

const RANGE = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/u;

/** Reads `"HH:MM-HH:MM"` (`"23:00-07:00"` crosses midnight; `24:00` may end a range); a string is the reason it is not one. */
export function parseHourRange(text: string): HourRange | string {
  const match = RANGE.exec(text.trim());
  if (match === null) return `${JSON.stringify(text)} is not a time range: write "HH:MM-HH:MM", e.g. "23:00-07:00"`;
  const [startHour, startMinute, endHour, endMinute] = match.slice(1).map(Number) as [number, number, number, number];
  if (startHour > 23 || startMinute > 59) return `${JSON.stringify(text)}: the start is not a time of day (00:00 to 23:59)`;
  if (endMinute > 59 || endHour > 24 || (endHour === 24 && endMinute !== 0)) return `${JSON.stringify(text)}: the end is not a time of day (00:00 to 24:00)`;
  const start = startHour * 60 + startMinute;
  const end = endHour * 60 + endMinute;
  if (start === end) return `${JSON.stringify(text)} is an empty range: its start and end are the same`;
  return { start, end };
}

/** Whether `minute` (after local midnight) falls in the range: from its start (included) to its end (excluded). */
export function hourRangeContains(range: HourRange, minute: number): boolean {
  return range.start < range.end ? minute >= range.start && minute < range.end : minute >= range.start || minute < range.end;
}

/** One `"HH:MM-HH:MM"` local time range (a rule's `hours`, proactive speech's); a bad one is refused with the reason. */
export const HourRangeSchema = z.string().superRefine((text, ctx) => {
  const range = parseHourRange(text);
  if (typeof range === 'string') ctx.addIssue({ code: 'custom', message: range });
});

/**
 * Whether the local time of `epochMs` in `timeZone` (an IANA name; `''`: the machine's)
 * falls in one of `ranges` (`"HH:MM-HH:MM"`, as `HourRangeSchema` checks them; one that is
 * not a range never matches).
 */
export function withinHours(ranges: readonly string[], epochMs: number, timeZone: string): boolean {
  const minute = localMinuteOfDay(epochMs, timeZone);
  return ranges.some((text) => {
    const range = parseHourRange(text);
    return typeof range !== 'string' && hourRangeContains(range, minute);
  });
}

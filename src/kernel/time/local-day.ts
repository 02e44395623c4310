/** One calendar day in a time zone. */
export interface LocalDay {
  /** `YYYY-MM-DD`. */
  key: string;
  /** Epoch milliseconds of its 00:00. */
  start: number;
  /** Epoch milliseconds of the next day's 00:00. */
  end: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock fields of `epochMs` in `timeZone`. */
function wallClock(epochMs: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts: Record<string, number> = {};
  for (const part of formatOf(timeZone).formatToParts(new Date(epochMs))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts['year']!, month: parts['month']!, day: parts['day']!, hour: parts['hour']! % 24, minute: parts['minute']!, second: parts['second']! };
}

/** How far `timeZone` is ahead of UTC at `epochMs`, milliseconds. */
function offsetAt(epochMs: number, timeZone: string): number {
  const wall = wallClock(epochMs, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

/** The epoch of 00:00 on the given date in `timeZone` (twice round: the offset may differ at midnight). */
function midnight(year: number, month: number, day: number, timeZone: string): number {
  const utcMidnight = Date.UTC(year, month - 1, day);
  let guess = utcMidnight - offsetAt(utcMidnight, timeZone);
  guess = utcMidnight - offsetAt(guess, timeZone);
  return guess;
}

/** `''`: the machine's time zone (as bot.toml [bot] timezone means it). */
export function resolveTimeZone(timeZone: string): string {
  if (timeZone !== '') return timeZone;
  // Asked once per TZ setting: building a formatter to ask costs more than most of its callers' work.
  const tz = process.env['TZ'] ?? '';
  if (machineZone === undefined || machineZone.tz !== tz) machineZone = { tz, zone: Intl.DateTimeFormat().resolvedOptions().timeZone };
  return machineZone.zone;
}

let machineZone: { tz: string; zone: string } | undefined;

/** The calendar day `epochMs` falls on in `timeZone` (an IANA name; `''`: the machine's). */
export function localDayOf(epochMs: number, timeZone: string): LocalDay {
  const zone = resolveTimeZone(timeZone);
  const { year, month, day } = wallClock(epochMs, zone);
  const start = midnight(year, month, day, zone);
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  const end = midnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), zone);
  return { key: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, start, end };
}

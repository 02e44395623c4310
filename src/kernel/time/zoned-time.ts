import { readlinkSync } from 'node:fs';

/** A moment's wall clock in one time zone. */
export interface ZonedTime {
  /** The calendar year, as `2026`. */
  year: number;
  /** 1 to 12. */
  month: number;
  /** The day of the month, 1 to 31. */
  day: number;
  /** 0 to 23. */
  hour: number;
  /** 0 to 59. */
  minute: number;
  /** 0 to 59. */
  second: number;
  /** 0 = Sunday. */
  weekday: number;
  /** Minutes ahead of UTC (Asia/Shanghai: 480). */
  offsetMinutes: number;
}

// The machine's own zone is read through `Date`'s local-time getters, never through an
// `Intl.DateTimeFormat`: building the first formatter pages in about 8 MiB of ICU's data (its
// pattern generator, calendars and zone names), as much as a tenth of a small bot's memory,
// and the machine's zone is the default (bot.toml `[bot] timezone = ""`). Other zones need
// ICU's zone rules, so they get a formatter each, built once.

/**
 * The IANA name of `timeZone`: itself, or for `''` the machine's zone (see
 * `machineTimeZone`).
 */
export function resolveTimeZone(timeZone: string): string {
  return timeZone === '' ? machineTimeZone() : timeZone;
}

/** `epochMs` on the wall clock of `timeZone`, an IANA name (`''`: the machine's zone). */
export function zonedTime(epochMs: number, timeZone: string): ZonedTime {
  return timeZone === '' || timeZone === machineTimeZone() ? localTime(epochMs) : formattedTime(epochMs, timeZone);
}

function localTime(epochMs: number): ZonedTime {
  const date = new Date(epochMs);
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
    weekday: date.getDay(),
    // `|| 0`: UTC is +0, not -0.
    offsetMinutes: -date.getTimezoneOffset() || 0,
  };
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function formattedTime(epochMs: number, timeZone: string): ZonedTime {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) parts[part.type] = part.value;
  const field = (type: string): number => Number(parts[type]);
  const wall = { year: field('year'), month: field('month'), day: field('day'), hour: field('hour') % 24, minute: field('minute'), second: field('second') };
  // The offset is what the wall clock reads minus what UTC reads at the same (whole) second.
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return { ...wall, weekday: WEEKDAYS.indexOf(parts['weekday'] ?? ''), offsetMinutes: Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60_000) };
}

let machineZone: { tz: string | undefined; zone: string } | undefined;

/**
 * The machine's time zone as an IANA name, found where ICU (and so `Date`) finds it: the `TZ`
 * variable, else the zone file `/etc/localtime` links to. When neither names a zone plainly
 * (a POSIX rule such as `CST-8`, a copied zone file, Windows), ICU is asked, at the cost the
 * comment above names. Read again whenever `TZ` changes, as Node resets its clock then.
 */
export function machineTimeZone(): string {
  const tz = process.env['TZ'];
  if (machineZone === undefined || machineZone.tz !== tz) machineZone = { tz, zone: namedZone(tz) ?? Intl.DateTimeFormat().resolvedOptions().timeZone };
  return machineZone.zone;
}

// UTC under the names zoneinfo links to it by; ICU calls all of them UTC.
const UTC_NAMES = new Set(['UTC', 'UCT', 'Universal', 'Zulu', 'Etc/UTC', 'Etc/UCT', 'Etc/Universal', 'Etc/Zulu']);
const ZONE_NAME = /^[A-Za-z][A-Za-z_-]*(\/[A-Za-z0-9_+-]+){1,2}$|^UTC$/;

/** The zone `TZ` (or, without it, `/etc/localtime`) names plainly; undefined when it does not. */
function namedZone(tz: string | undefined): string | undefined {
  if (tz !== undefined) {
    const value = tz.startsWith(':') ? tz.slice(1) : tz;
    // POSIX: an empty TZ is UTC.
    if (value === '') return 'UTC';
    return plainName(value.startsWith('/') ? zoneInPath(value) : value);
  }
  try {
    return plainName(zoneInPath(readlinkSync('/etc/localtime')));
  } catch {
    return undefined;
  }
}

/** `/usr/share/zoneinfo/Asia/Shanghai` → `Asia/Shanghai` (also under `posix/` or `right/`). */
function zoneInPath(path: string): string | undefined {
  const at = path.lastIndexOf('/zoneinfo/');
  if (at < 0) return undefined;
  return path.slice(at + '/zoneinfo/'.length).replace(/^(posix|right)\//, '');
}

/** An `Area/Place` name (or UTC by any of its names); a POSIX rule or anything else is not. */
function plainName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (UTC_NAMES.has(name)) return 'UTC';
  return ZONE_NAME.test(name) ? name : undefined;
}

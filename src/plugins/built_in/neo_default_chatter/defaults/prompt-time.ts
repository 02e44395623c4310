/**
 * Times as the model reads them. Every time in one prompt is given in one zone, `bot.toml
 * [bot] timezone` (empty: the machine's), and the prompt's "now" names that zone and its UTC
 * offset, so `【14:05】` and "now" can be compared (the prompt once mixed local `HH:MM` with
 * a UTC ISO string).
 */
import { zonedTime, type ZonedTime } from 'moonglass';

const CHINESE_WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];

/**
 * The wall clock of recent moments, per zone and second: every turn formats the same
 * history lines again, and reading a named zone's clock (ICU's `formatToParts`) is the costly
 * part of a line.
 */
const recentTimes = new Map<string, ZonedTime>();
const RECENT_TIMES_KEPT = 2_000;

/** `zonedTime` of a whole second, shared: never change what it returns. */
function sharedZonedTime(epochMs: number, timeZone: string): Readonly<ZonedTime> {
  const wholeSecond = Math.floor(epochMs / 1000) * 1000;
  const key = `${timeZone}|${wholeSecond}`;
  const known = recentTimes.get(key);
  if (known !== undefined) return known;
  const time = zonedTime(wholeSecond, timeZone);
  if (recentTimes.size >= RECENT_TIMES_KEPT) recentTimes.delete(recentTimes.keys().next().value!);
  recentTimes.set(key, time);
  return time;
}

const pad = (value: number): string => String(value).padStart(2, '0');

/** An offset as `+08:00`, `-03:30`, `+00:00`. */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const minutes = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** True when both moments fall on the same calendar day in `timeZone`. */
export function sameDay(firstMs: number, secondMs: number, timeZone: string): boolean {
  const first = sharedZonedTime(firstMs, timeZone);
  const second = sharedZonedTime(secondMs, timeZone);
  return first.year === second.year && first.month === second.month && first.day === second.day;
}

/**
 * `epochSeconds` in `timeZone`, by a strftime subset: `%Y %m %d %H %M %S` (24-hour clock),
 * `%z` (the offset, `+08:00`) and `%%`. Other directives stay as written. `'%H:%M'` gives `09:05`.
 */
export function formatZonedTime(epochSeconds: number, format: string, timeZone: string): string {
  const time = sharedZonedTime(epochSeconds * 1000, timeZone);
  let text = '';
  for (const part of formatParts(format)) text += typeof part === 'string' ? part : directiveText(part.directive, time);
  return text;
}

/** A format cut into literal text and directives, once per format (prompts use a handful). */
type FormatPart = string | { directive: string };
const parsedFormats = new Map<string, readonly FormatPart[]>();
const PARSED_FORMATS_KEPT = 100;

function formatParts(format: string): readonly FormatPart[] {
  const known = parsedFormats.get(format);
  if (known !== undefined) return known;
  const parts: FormatPart[] = [];
  let last = 0;
  for (const match of format.matchAll(/%([YmdHMSz%])/g)) {
    if (match.index > last) parts.push(format.slice(last, match.index));
    parts.push({ directive: match[1]! });
    last = match.index + match[0].length;
  }
  if (last < format.length) parts.push(format.slice(last));
  if (parsedFormats.size >= PARSED_FORMATS_KEPT) parsedFormats.delete(parsedFormats.keys().next().value!);
  parsedFormats.set(format, parts);
  return parts;
}

function directiveText(directive: string, time: Readonly<ZonedTime>): string {
  switch (directive) {
    case 'Y':
      return String(time.year);
    case 'm':
      return pad(time.month);
    case 'd':
      return pad(time.day);
    case 'H':
      return pad(time.hour);
    case 'M':
      return pad(time.minute);
    case 'S':
      return pad(time.second);
    case 'z':
      return formatOffset(time.offsetMinutes);
    default:
      return '%';
  }
}

/**
 * The prompt's current time, naming the zone every other time in the prompt is in:
 * `2023-11-15 14:13（星期三，Asia/Shanghai 时间，UTC+08:00；消息时间同此时区）`.
 */
export function formatPromptNow(epochMs: number, timeZone: string): string {
  const time = sharedZonedTime(epochMs, timeZone);
  const date = `${time.year}-${pad(time.month)}-${pad(time.day)} ${pad(time.hour)}:${pad(time.minute)}`;
  return `${date}（${CHINESE_WEEKDAYS[time.weekday] ?? ''}，${timeZone} 时间，UTC${formatOffset(time.offsetMinutes)}；消息时间同此时区）`;
}

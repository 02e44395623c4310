import { z } from 'zod';

/** The longest `/mute`: 30 days. */
export const MAX_MUTE_MS = 30 * 86_400_000;

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  sec: 1000,
  秒: 1000,
  秒钟: 1000,
  m: 60_000,
  min: 60_000,
  分: 60_000,
  分钟: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  时: 3_600_000,
  小时: 3_600_000,
  个小时: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  天: 86_400_000,
  日: 86_400_000,
};

const PART = /(\d+(?:\.\d+)?)\s*(个小时|小时|秒钟|分钟|sec|min|hr|day|[smhd秒分时天日])/giu;

/** `30m`, `2h`, `1d`, `90s`, `1h30m`, `30分钟`, `1小时30分` in milliseconds; undefined: not a duration. */
export function parseMuteDuration(text: string): number | undefined {
  const compact = text.trim().toLowerCase();
  if (compact === '') return undefined;
  let total = 0;
  let consumed = 0;
  for (const match of compact.matchAll(PART)) {
    if (match.index !== consumed && compact.slice(consumed, match.index).trim() !== '') return undefined;
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    consumed = match.index + match[0].length;
  }
  if (consumed === 0 || compact.slice(consumed).trim() !== '') return undefined;
  return Math.round(total);
}

/** The `/mute` argument: a duration with units, more than 0 and at most 30 days, as milliseconds. */
export const MuteDurationSchema = z
  .string()
  .transform((text, context) => {
    const ms = parseMuteDuration(text);
    if (ms === undefined) {
      context.addIssue({ code: 'custom', message: `“${text}”不是时长，写成 30m、2h、1d、90s、1h30m 或 30分钟` });
      return z.NEVER;
    }
    if (ms <= 0) {
      context.addIssue({ code: 'custom', message: '时长要大于 0' });
      return z.NEVER;
    }
    if (ms > MAX_MUTE_MS) {
      context.addIssue({ code: 'custom', message: '最长 30 天' });
      return z.NEVER;
    }
    return ms;
  })
  .describe('时长：30m、2h、1d、1h30m、30分钟（最长 30 天）');

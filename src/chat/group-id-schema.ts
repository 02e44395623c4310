import * as z from 'zod';

/** How a TOML value reads in an error message: `"abc"`, `number 1.5`, `a table`, `a list`. */
export function describeTomlValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a table';
  return typeof value === 'string' ? JSON.stringify(value) : `${typeof value} ${String(value)}`;
}

/** A group id as TOML may hold it: a string ("123456") or a bare integer (123456); kept as a string. */
export const groupIdSchema = z.unknown().transform((value, ctx): string => {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if ((typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) || (typeof value === 'bigint' && value >= 0n)) return String(value);
  ctx.addIssue({ code: 'custom', message: `${describeTomlValue(value)} is not a group id: write it as a string ("123456") or a whole number` });
  return z.NEVER;
});

import * as z from 'zod';

/** A zod error option: "is missing" for an absent field, otherwise "must be <what>". */
export function expected(what: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => (issue.input === undefined ? 'is missing' : `must be ${what}`) };
}

/**
 * An id from the platform: OneBot sends integers (int64, message ids int32), some
 * implementations strings. Always a string after parsing, so the host compares ids one way.
 */
export const PlatformIdSchema = z
  .union([z.number().int(), z.string().min(1)], expected('an integer or a non-empty string'))
  .transform((id) => String(id));

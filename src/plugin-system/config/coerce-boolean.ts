import type * as z from 'zod';
import { schemaType } from '../../kernel/config/zod-introspection.js';

/** The spellings of a yes and a no that the seed's config model (Pydantic) takes for a bool. */
const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/**
 * A boolean field's value as a person may write it (`enabled = "no"`, `"off"`, `0`), as the
 * boolean it means; anything else unchanged, for the model to judge. This is phase 2 of the
 * plugin switch: the model decides what `"no"` means, after the plugin's import (phase 1,
 * `readEnabledFlag`, short-circuits only on a literal `false`).
 */
export function coerceBoolean(schema: z.ZodType, raw: unknown): unknown {
  if (schemaType(schema) !== 'boolean') return raw;
  if (raw === 0 || raw === 1) return raw === 1;
  if (typeof raw !== 'string') return raw;
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return raw;
}

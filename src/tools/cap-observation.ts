import { InvalidArgumentError } from '../kernel/errors/invalid-argument-error.js';

/** Appended to a clipped observation so the model knows there was more. */
export const TRUNCATION_MARK = '…（已截断）';

/** The smallest cap `capObservation` accepts, in characters (code points). */
export const MIN_OBSERVATION_MAX_CHARS = 32;

const MARK_LENGTH = [...TRUNCATION_MARK].length;

/**
 * Clips `text` to at most `maxChars` characters, counted in code points so a surrogate pair
 * is never split; a clipped text ends with 「…（已截断）」, the mark included in the count.
 * Throws `InvalidArgumentError` for a `maxChars` that is not an integer of at least
 * `MIN_OBSERVATION_MAX_CHARS`.
 */
export function capObservation(text: string, maxChars: number): string {
  if (!Number.isInteger(maxChars) || maxChars < MIN_OBSERVATION_MAX_CHARS) {
    throw new InvalidArgumentError('capObservation', 'maxChars', maxChars, `an integer >= ${MIN_OBSERVATION_MAX_CHARS}`);
  }
  // UTF-16 length is never below the code point count, so most texts return here unscanned.
  if (text.length <= maxChars) return text;
  const keep = maxChars - MARK_LENGTH;
  let kept = 0;
  let end = 0;
  for (const character of text) {
    if (kept === keep) {
      // The text has more than `keep` code points; is the rest short enough to keep whole?
      const rest = text.slice(end);
      if (codePointCountUpTo(rest, MARK_LENGTH + 1) <= MARK_LENGTH) return text;
      return text.slice(0, end) + TRUNCATION_MARK;
    }
    kept += 1;
    end += character.length;
  }
  return text;
}

/** The number of code points in `text`, counting no further than `limit`. */
function codePointCountUpTo(text: string, limit: number): number {
  let count = 0;
  for (const _character of text) {
    count += 1;
    if (count >= limit) break;
  }
  return count;
}

import { InvalidArgumentError } from '../../kernel/errors/invalid-argument-error.js';

/**
 * Refuses a row limit that is not a non-negative safe integer. SQLite would read a negative
 * LIMIT as "no limit", which is never what a caller of `history(id, -1)` meant.
 */
export function checkLimit(functionName: string, limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new InvalidArgumentError(functionName, 'limit', limit, 'a non-negative integer');
  }
}

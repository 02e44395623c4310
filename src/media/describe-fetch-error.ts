import { describeError } from '../kernel/errors/describe-error.js';

/** fetch's `TypeError: fetch failed` keeps the real reason (ECONNREFUSED, a reset ...) in `cause`. */
export function describeFetchError(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause === undefined ? describeError(error) : `${describeError(error)} (${describeError(cause)})`;
}

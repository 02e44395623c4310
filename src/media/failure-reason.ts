import { describeError } from '../kernel/errors/describe-error.js';
import { MediaFailure } from './media-failure.js';

/** A failure as one log-friendly line: a `MediaFailure`'s reason, else the error described. */
export function failureReason(error: unknown): string {
  if (error instanceof MediaFailure) return error.message;
  return describeError(error).replace(/\s*\n\s*/g, ' ');
}

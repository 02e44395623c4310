import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import { MediaFailure } from './media-failure.js';

/** A failure as one log-friendly line: a `MediaFailure`'s reason, else the error described. */
export function failureReason(error: unknown): string {
  if (error instanceof MediaFailure) return error.message;
  return describeError(error).replace(/\s*\n\s*/g, ' ');
}

/**
 * Logs why describing an image or video ended without a text (a waiter's cancellation at
 * info, any other failure at warn, with its reason) and returns the `null` the caller gets.
 */
export function logMediaFailure(
  logger: Logger,
  kind: 'image' | 'video',
  log: Record<string, unknown>,
  signal: AbortSignal,
  error: unknown,
): null {
  if (signal.aborted) {
    logger.info({ ...log, reason: failureReason(signal.reason) }, `${kind} description cancelled by a waiter`);
    return null;
  }
  const reason = failureReason(error);
  logger.warn({ ...log, reason }, `could not describe ${kind === 'image' ? 'an image' : 'a video'}: ${reason}`);
  return null;
}

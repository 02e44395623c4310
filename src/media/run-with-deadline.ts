import type { Clock } from '../kernel/time/clock.js';
import { MediaFailure } from './media-failure.js';

export interface DeadlineOptions {
  clock: Clock;
  /** The caller's cancellation; its abort ends the work with the signal's reason. */
  signal: AbortSignal;
  timeoutMs: number;
  /** The failure reason when the deadline passes, built at that moment. */
  timeoutReason: () => string;
}

/**
 * Runs `work` with a signal that aborts when `signal` does or when `timeoutMs` passes on the
 * clock. Settles as soon as either happens, even when the work ignores its signal: with the
 * caller's abort reason, or with a `MediaFailure` carrying `timeoutReason()`.
 */
export async function runWithDeadline<T>(options: DeadlineOptions, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { clock, signal } = options;
  if (signal.aborted) throw signal.reason;
  const controller = new AbortController();
  const stopped = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const handle = clock.setTimeout(() => controller.abort(new MediaFailure(options.timeoutReason())), options.timeoutMs);
  try {
    return await Promise.race([work(controller.signal), stopped]);
  } finally {
    clock.clearTimeout(handle);
    signal.removeEventListener('abort', onAbort);
  }
}

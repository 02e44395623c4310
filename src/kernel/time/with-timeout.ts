import type { Clock, TimerHandle } from './clock.js';

/** Thrown by `withTimeout` when the work did not settle in time. */
export class TimeoutReachedError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no result within ${timeoutMs} ms`);
    this.name = 'TimeoutReachedError';
  }
}

/** Settles like `work`, or rejects with `TimeoutReachedError` after `timeoutMs` on `clock`. */
export async function withTimeout<T>(clock: Clock, work: Promise<T>, timeoutMs: number): Promise<T> {
  let handle: TimerHandle | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    handle = clock.setTimeout(() => reject(new TimeoutReachedError(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    if (handle !== undefined) clock.clearTimeout(handle);
  }
}

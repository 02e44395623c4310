export interface UntilOptions {
  /** Named in the error. */
  what: string;
  /** Default 30 s. */
  timeoutMs?: number;
  /** How often to look; default 20 ms. */
  everyMs?: number;
}

/**
 * Polls a condition on the visible state of something that works in real time (a child
 * process, its database file) until it holds, or rejects after the deadline naming `what`.
 * For code on an injected clock, advance the clock instead.
 */
export async function until(condition: () => boolean, options: UntilOptions): Promise<void> {
  const { what, timeoutMs = 30_000, everyMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The first pause before reconnecting, in milliseconds. */
export const FIRST_RECONNECT_DELAY_MS = 1000;
/** The longest pause between reconnect attempts, in milliseconds. */
export const MAX_RECONNECT_DELAY_MS = 60_000;

/** The pause before reconnect attempt `attempt` (1 for the first): 1 s, doubling, at most 60 s. */
export function reconnectDelayMs(attempt: number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  return Math.min(FIRST_RECONNECT_DELAY_MS * 2 ** exponent, MAX_RECONNECT_DELAY_MS);
}

/**
 * What a handler tells the bus.
 * - `SUCCESS`: its params become the current params; the chain continues.
 * - `PASS`: its params are discarded; the chain continues (observe only).
 * - `STOP`: its params become the current params; the chain ends.
 */
export const EventDecision = {
  /** The handler's params become the current params; the next handler runs. */
  SUCCESS: 'SUCCESS',
  /** The handler's params are discarded; the next handler runs (observe only). */
  PASS: 'PASS',
  /** The handler's params become the current params and no later handler runs. */
  STOP: 'STOP',
} as const;

export type EventDecision = (typeof EventDecision)[keyof typeof EventDecision];

export function isEventDecision(value: unknown): value is EventDecision {
  return value === 'SUCCESS' || value === 'PASS' || value === 'STOP';
}

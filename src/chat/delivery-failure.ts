/**
 * What a failed delivery means for the outbox:
 * - `retry`: nothing reached the platform (no connection, the adapter is restarting); the
 *   reply stays queued and is tried again.
 * - `in_doubt`: the platform may have it (the request went out, the answer never came); it
 *   is not sent again, since a reply twice is worse than a warning in the log.
 * - `refused`: the platform answered no (the bot is muted, the group is gone); trying again
 *   would not help, so the reply is dropped with its reason.
 */
export type DeliveryFailureKind = 'retry' | 'in_doubt' | 'refused';

const KINDS: ReadonlySet<string> = new Set<DeliveryFailureKind>(['retry', 'in_doubt', 'refused']);

/** The kind an error carries in its `deliveryFailure` field, if it carries one. */
export function markedDeliveryFailure(error: unknown): DeliveryFailureKind | undefined {
  const kind = typeof error === 'object' && error !== null ? (error as { deliveryFailure?: unknown }).deliveryFailure : undefined;
  return typeof kind === 'string' && KINDS.has(kind) ? (kind as DeliveryFailureKind) : undefined;
}

/**
 * The kind a sink's error carries in its `deliveryFailure` field; an error without one
 * counts as `retry` (a sink that does not classify its failures loses nothing by it).
 */
export function deliveryFailureOf(error: unknown): DeliveryFailureKind {
  return markedDeliveryFailure(error) ?? 'retry';
}

/** Marks `error` with a delivery failure kind (for sinks and adapters); returns it. */
export function withDeliveryFailure<E extends Error>(error: E, kind: DeliveryFailureKind): E & { deliveryFailure: DeliveryFailureKind } {
  return Object.assign(error, { deliveryFailure: kind });
}

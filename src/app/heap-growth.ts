import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection, in
 * percent. V8's own factor adapts to the allocation rate and reaches 2-4x under load: a bot
 * answering 1,000 conversations at once held ~90 MiB of live objects but let its heap reach
 * ~270 MiB (process peak 428 MiB) before collecting, since everything a turn allocates lives
 * for the turn's few hundred milliseconds and is promoted. At 50% the same load peaked at
 * ~276 MiB for a few percent more time in the collector. Not a cap: a bot that really holds
 * more keeps growing; only garbage is collected sooner. issue 20, bench/peers.bench.ts.
 */
export const HEAP_GROWING_PERCENT = 50;

/** Applies HEAP_GROWING_PERCENT to this process (its worker threads included). Once, at start. */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
